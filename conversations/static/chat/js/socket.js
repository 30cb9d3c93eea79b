// The chat socket protocol (/ws/chat/): connect, reconnect with backoff, the outbox, frames out.
//
// One ChatSocket serves one conversation (or a blank chat until its first message is
// acknowledged). A message stays in the outbox until its `ack` arrives; after every `ready`
// (the first connection and each reconnect) the outbox is sent again with the original
// client_message_id, which the server answers with the stored turn instead of a second copy.
// The outbox is mirrored in a store (outbox.js, the browser's storage), which also hands a new
// socket the messages an earlier page of this user and conversation left unsent.

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;
const RATE_LIMITED_PAUSE_MS = 10000;
// The server closes the socket (4009) on a frame over 64 KiB; refuse such a frame before.
export const FRAME_MAX_BYTES = 64 * 1024;

export const CLOSE = {
  NOT_AUTHENTICATED: 4401,
  NOT_FOUND: 4404,
  TOO_MANY: 4429,
  TOO_LARGE: 4009,
};
// After these the socket is not reopened: the page has to go somewhere else first.
const FINAL_CLOSES = new Set([CLOSE.NOT_AUTHENTICATED, CLOSE.NOT_FOUND]);

export function newClientMessageId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; plain http on a LAN address is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class ChatSocket {
  /**
   * @param {object} options
   * @param {string} options.path  the socket's path, "/ws/chat/"
   * @param {string|null} options.conversationId  null for a blank chat
   * @param {(frame: object) => void} options.onFrame  every server frame, in order
   * @param {(status: object) => void} options.onStatus
   *   {state: "connecting"|"ready"|"waiting", attempt, retryAt?, code?}
   * @param {(close: {code: number, reason: string}) => void} options.onClose  every close the server decided
   * @param {{load: Function, add: Function, remove: Function, moveTo: Function}} [options.store]
   *   where the outbox is kept across pages (StoredOutbox); none keeps it in memory only
   */
  constructor({ path, conversationId, onFrame, onStatus, onClose, store = null }) {
    this.path = path;
    this.conversationId = conversationId || null;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.onClose = onClose;
    this.store = store;
    // [{clientMessageId, content, sent}] in the order they were written
    this.outbox = (store?.load() ?? []).map((entry) => ({ ...entry, sent: false }));
    this.ws = null;
    this.isReady = false;
    this.attempt = 0; // consecutive failed connections; 0 after every ready
    this.timer = null;
    this.finished = false;
    this.lastSentType = null;
    this.onOnline = () => this.retryNow();
    window.addEventListener("online", this.onOnline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.conversationId ? `?conversation_id=${encodeURIComponent(this.conversationId)}` : "";
    return `${scheme}//${location.host}${this.path}${query}`;
  }

  connect() {
    if (this.finished || this.ws) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus({ state: "connecting", attempt: this.attempt });
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return; // not ours to understand; the server only sends JSON objects
    }
    if (!frame || typeof frame !== "object" || typeof frame.type !== "string") return;
    if (frame.type === "ready") {
      this.isReady = true;
      this.attempt = 0;
      for (const entry of this.outbox) entry.sent = false;
      this.onStatus({ state: "ready", attempt: 0 });
      this.onFrame(frame);
      this.flush();
      return;
    }
    if (frame.type === "ack" && frame.client_message_id) {
      this.outbox = this.outbox.filter((entry) => entry.clientMessageId !== frame.client_message_id);
      this.store?.remove(frame.client_message_id);
    }
    this.onFrame(frame);
  }

  closed(ws, event) {
    if (ws !== this.ws) return; // an old socket, replaced already
    this.ws = null;
    this.isReady = false;
    if (this.finished) return;
    this.onClose({ code: event.code, reason: event.reason });
    if (FINAL_CLOSES.has(event.code)) {
      this.close();
      return;
    }
    const delay = this.nextDelay();
    this.schedule(event.code === CLOSE.TOO_MANY ? Math.max(delay, RATE_LIMITED_PAUSE_MS) : delay, event.code);
  }

  // Exponential backoff with jitter: about 0.5 s, 1 s, 2 s … up to 15 s, each drawn from the
  // upper half of its step so that a restarted server is not met by every tab at once.
  nextDelay() {
    const step = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt);
    this.attempt += 1;
    return step / 2 + Math.random() * (step / 2);
  }

  schedule(delay, code) {
    clearTimeout(this.timer);
    const retryAt = Date.now() + delay;
    this.timer = setTimeout(() => this.connect(), delay);
    this.onStatus({ state: "waiting", attempt: this.attempt, retryAt, code });
  }

  retryNow() {
    if (this.finished || this.ws) return;
    this.connect();
  }

  // A blank chat's first message created the conversation: reconnects open that one.
  setConversation(conversationId) {
    this.conversationId = conversationId;
    this.store?.moveTo(conversationId, this.outbox);
  }

  frameFits(frame) {
    return new Blob([JSON.stringify(frame)]).size <= FRAME_MAX_BYTES;
  }

  /** Queue a message; it goes out now when the socket is ready, else after the next ready. */
  send(content, clientMessageId = newClientMessageId()) {
    const frame = { type: "message", content, client_message_id: clientMessageId };
    if (!this.frameFits(frame)) return null;
    const entry = { clientMessageId, content, sent: false };
    this.outbox.push(entry);
    this.store?.add(entry);
    if (this.isReady) this.transmit(entry);
    return clientMessageId;
  }

  flush() {
    for (const entry of this.outbox) if (!entry.sent) this.transmit(entry);
  }

  transmit(entry) {
    this.write({ type: "message", content: entry.content, client_message_id: entry.clientMessageId });
    entry.sent = true;
  }

  write(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    this.lastSentType = frame.type;
    return true;
  }

  stop() {
    return this.isReady && this.write({ type: "stop" });
  }

  /** Take the oldest message sent on this socket and not acknowledged (the one an error is about). */
  takeOldestInFlight() {
    return this.takeAt(this.outbox.findIndex((entry) => entry.sent));
  }

  /** Take a message of the outbox by its client_message_id (an error frame names it). */
  take(clientMessageId) {
    return this.takeAt(this.outbox.findIndex((entry) => entry.clientMessageId === clientMessageId));
  }

  takeAt(index) {
    if (index < 0) return null;
    const [entry] = this.outbox.splice(index, 1);
    this.store?.remove(entry.clientMessageId); // refused: shown with Retry, not sent by itself
    return entry;
  }

  get pending() {
    return this.outbox.slice();
  }

  /** For good: no reconnect, no more callbacks. */
  close() {
    this.finished = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    const ws = this.ws;
    this.ws = null;
    this.isReady = false;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
  }
}
