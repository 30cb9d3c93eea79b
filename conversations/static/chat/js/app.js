// The chat page: wires the socket, the transcript, the sidebar and the composer together, and
// owns what they share: which conversation is open (the URL), whether a turn is running, the
// connection banner, the details switch and the phone drawer.

import { conversationsApi } from "./api.js";
import { Composer } from "./composer.js";
import { StoredOutbox, outboxForget } from "./outbox.js";
import { CLOSE, ChatSocket } from "./socket.js";
import { Sidebar, titleOf } from "./sidebar.js";
import { Transcript } from "./transcript.js";

const $ = (selector) => document.querySelector(selector);
const root = $("#chat");
const app = $("#app");
const DETAILS_KEY = "omniforge.showDetails";
const narrowScreen = window.matchMedia("(max-width: 760px)");

const state = {
  userId: root.dataset.userId, // whose outbox this page keeps and sends
  conversationId: root.dataset.conversationId || null,
  socket: null,
  sending: false, // a message of this page is on its way or its answer is streaming
  drafts: new Map(), // text typed but not sent, per conversation ("" for the blank chat)
  moreEarlier: false, // the server has messages before the first one shown
};

// --- notices ----------------------------------------------------------------------------------

const toast = $("#toast");
let toastTimer = null;
function notify(text) {
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.hidden = true;
    toast.textContent = "";
  }, 7000);
}

const banner = $("#banner");
const bannerText = $("#banner-text");
let bannerTimer = null;
function showBanner(status) {
  clearInterval(bannerTimer);
  if (status.state === "ready" || (status.state === "connecting" && status.attempt === 0)) {
    banner.hidden = true;
    return;
  }
  const offline = navigator.onLine === false;
  const update = () => {
    let text;
    if (status.state === "connecting") {
      text = offline ? "You are offline. Trying to reconnect…" : "Reconnecting…";
    } else {
      const seconds = Math.max(1, Math.ceil((status.retryAt - Date.now()) / 1000));
      const reason =
        status.code === CLOSE.TOO_MANY
          ? "Too many messages in a short time."
          : offline
            ? "You are offline."
            : "Connection lost.";
      text = `${reason} Reconnecting in ${seconds} s…`;
    }
    if (state.socket?.pending.length) text += " Your message will be sent then.";
    bannerText.textContent = text;
  };
  update();
  banner.hidden = false;
  if (status.state === "waiting") bannerTimer = setInterval(update, 1000);
}
$("#banner-retry").addEventListener("click", () => state.socket?.retryNow());

// --- the parts --------------------------------------------------------------------------------

const transcript = new Transcript({
  log: $("#transcript"),
  scroller: $("#scroller"),
  empty: $("#welcome"),
  resume: $("#resume"),
  loading: $("#loading"),
  logoUrl: root.dataset.logoUrl,
  onChoice: (n) => send(String(n)),
  onRetry: (clientMessageId) => retry(clientMessageId),
});

const sidebar = new Sidebar({
  list: $("#conversation-list"),
  empty: $("#conversation-empty"),
  more: $("#conversation-more"),
  dialog: $("#confirm-dialog"),
  onOpen: (id) => open(id),
  onDeleted: (id) => {
    if (id === state.conversationId) open(null, { history: "replace" });
  },
  onChange: () => {
    showTitle();
    refreshEarlier();
  },
  notify,
});

const composer = new Composer({
  form: $("#composer"),
  input: $("#composer-input"),
  sendButton: $("#send-button"),
  stopButton: $("#stop-button"),
  counter: $("#composer-counter"),
  onSend: (text) => send(text),
  onStop: () => stop(),
});

// --- sending ----------------------------------------------------------------------------------

function setSending(sending) {
  state.sending = sending;
  composer.setBusy(sending);
}

function send(text) {
  if (state.sending || transcript.isStreaming) {
    notify("Wait for the answer to finish, or stop it first.");
    return false;
  }
  const clientMessageId = state.socket.send(text);
  if (!clientMessageId) {
    notify("This message is too long to send. Shorten it and try again.");
    return false;
  }
  transcript.addPending(clientMessageId, text);
  setSending(true);
  return true;
}

function retry(clientMessageId) {
  const el = transcript.byClientId(clientMessageId);
  if (!el || state.sending) return;
  const content = el.dataset.content;
  if (!state.socket.send(content, clientMessageId)) return;
  transcript.markPending(clientMessageId);
  setSending(true);
}

function stop() {
  if (state.socket.stop()) transcript.markStopping();
  else notify("The answer cannot be stopped while the connection is down.");
}

// --- frames -----------------------------------------------------------------------------------

function foreign(frame) {
  const id = frame.conversation_id;
  return Boolean(id && state.conversationId && id !== state.conversationId);
}

const handlers = {
  ready(frame) {
    const history = Array.isArray(frame.history) ? frame.history : [];
    transcript.setHistory(history);
    // The server sends at most the last `historyLimit` messages: a shorter history is all of it.
    state.moreEarlier = history.length >= historyLimit;
    const pending = state.socket.pending;
    for (const entry of pending) transcript.addPending(entry.clientMessageId, entry.content);
    if (!pending.length) transcript.showResume(frame.state);
    setSending(pending.length > 0);
    refreshEarlier();
  },

  ack(frame) {
    if (foreign(frame)) return;
    const stored = frame.message ?? frame.user_message; // the stored user message
    if (frame.conversation_id && !state.conversationId) adopt(frame.conversation_id, stored);
    const mine = transcript.confirm(frame.client_message_id, stored ?? { id: frame.message_id });
    if (!mine && stored) transcript.addMessage(stored);
    transcript.hideResume();
    sidebar.touch(state.conversationId, { updatedAt: stored?.created_at, messages: 1 });
    if (!mine) setSending(true); // another tab's turn: Stop works from here as well
  },

  // A turn is running (this page's, another tab's, or one a reconnect joined midway).
  thinking() {
    transcript.startAnswer();
    setSending(true);
  },

  intent(frame) {
    transcript.setIntent(frame.intent);
    setSending(true);
  },

  chunk(frame) {
    if (typeof frame.content === "string") transcript.appendChunk(frame.content);
    setSending(true);
  },

  done(frame) {
    if (foreign(frame)) return;
    const stored = frame.message ?? frame.assistant_message; // the stored assistant message
    transcript.finishAnswer({ ...frame, message: stored });
    sidebar.touch(state.conversationId, { updatedAt: stored?.created_at, messages: 1 });
    setSending(state.socket.pending.length > 0);
  },

  error(frame) {
    const text =
      frame.code === "rate_limited"
        ? "You are sending messages too quickly. Wait a moment, then try again."
        : frame.detail || "The server could not take that.";
    if (frame.code === "server_error" && transcript.isStreaming) {
      transcript.interruptAnswer("Failed"); // the turn broke off: no `done` will come
    }
    // An error about a message names it; one that does not (a frame refused before it was
    // read) is about the oldest message unanswered, when a message was the last frame sent.
    const refused = frame.client_message_id
      ? state.socket.take(frame.client_message_id)
      : state.socket.lastSentType === "message"
        ? state.socket.takeOldestInFlight()
        : null;
    if (refused) {
      const reason = frame.code === "rate_limited" ? "Not sent: too fast" : "Not sent";
      transcript.fail(refused.clientMessageId, reason);
    }
    if ((refused || frame.code === "server_error") && !transcript.isStreaming) {
      setSending(state.socket.pending.length > 0);
    }
    notify(text);
  },

  // A message stored outside a turn (an agent run's outcome), on the conversation shown.
  message(frame) {
    const message = frame.message;
    if (!message?.id || message.conversation_id !== state.conversationId) return;
    if (transcript.byId(message.id)) return; // already shown (a history that held it)
    transcript.addMessage(message);
    // The `conversation` frame sent with it brings the sidebar's count: only recount here.
    refreshEarlier();
  },

  conversation(frame) {
    const conversation = frame.conversation;
    if (!conversation?.id) return;
    if (frame.event === "deleted") {
      sidebar.remove(conversation.id);
      outboxForget(state.userId, conversation.id);
      if (conversation.id === state.conversationId) {
        notify("This conversation was deleted.");
        open(null, { history: "replace" });
      }
    } else {
      sidebar.upsert(conversation);
    }
  },
};

function closed({ code }) {
  // The turn goes on without this socket; the next `ready` brings the stored answer.
  transcript.interruptAnswer();
  setSending(false);
  if (code === CLOSE.NOT_AUTHENTICATED) {
    const next = `${location.pathname}${location.search}`;
    location.assign(`/accounts/login/?next=${encodeURIComponent(next)}`);
  } else if (code === CLOSE.NOT_FOUND) {
    notify("That conversation is not available: it may have been deleted. Here is a new chat.");
    open(null, { history: "replace" });
  } else if (code === CLOSE.TOO_MANY) {
    notify("Too many messages in a short time. The chat reconnects after a pause.");
  } else if (code === CLOSE.TOO_LARGE) {
    const refused = state.socket.takeOldestInFlight();
    if (refused) transcript.fail(refused.clientMessageId, "Not sent: too large");
    notify("That message was too large to send.");
  }
}

function connect(conversationId) {
  const socket = new ChatSocket({
    path: root.dataset.wsPath,
    conversationId,
    onFrame: (frame) => {
      if (state.socket === socket && Object.hasOwn(handlers, frame.type)) handlers[frame.type](frame);
    },
    onStatus: (status) => {
      if (state.socket !== socket) return;
      root.dataset.connection = status.state; // connecting, ready or waiting
      transcript.setConnected(status.state === "ready");
      showBanner(status);
    },
    onClose: (close) => {
      if (state.socket === socket) closed(close);
    },
    store: new StoredOutbox(state.userId, conversationId),
  });
  state.socket = socket;
  // What an earlier page left unsent shows at once, marked; `ready` sends it.
  transcript.setConnected(false);
  for (const entry of socket.pending) transcript.addPending(entry.clientMessageId, entry.content);
  socket.connect();
}

// --- which conversation is open ----------------------------------------------------------------

function pathFor(id) {
  return id ? `/c/${encodeURIComponent(id)}/` : "/";
}

function idFromPath(pathname) {
  const match = pathname.match(/^\/c\/([^/]+)\/?$/);
  return match ? decodeURIComponent(match[1]) : null;
}

function showTitle() {
  const conversation = sidebar.get(state.conversationId);
  const title = state.conversationId ? titleOf(conversation) : "New chat";
  $("#chat-title").textContent = title;
  document.title = `${title} · OmniForge`;
}

/** A blank chat's first message created its conversation: same socket, the URL follows. */
function adopt(id, message) {
  state.conversationId = id;
  state.socket.setConversation(id);
  history.replaceState({ conversationId: id }, "", pathFor(id));
  if (!sidebar.get(id)) {
    const now = message?.created_at || new Date().toISOString();
    // Until the server's `conversation` frame names it, it is called what it began with.
    const title = (message?.content ?? "").split(/\s+/).join(" ").trim().slice(0, 80);
    sidebar.upsert({ id, title, created_at: now, updated_at: now, message_count: 0, metadata: {} });
  }
  sidebar.setCurrent(id);
  showTitle();
}

function open(id, { history: how = "push" } = {}) {
  setDrawer(false);
  if (id === state.conversationId && state.socket) {
    if (!narrowScreen.matches) composer.focus();
    return;
  }
  state.drafts.set(state.conversationId ?? "", composer.value);
  state.socket?.close();
  state.conversationId = id;
  setSending(false);
  transcript.clear({ loading: Boolean(id) });
  banner.hidden = true;
  clearInterval(bannerTimer);
  if (how === "push") history.pushState({ conversationId: id }, "", pathFor(id));
  if (how === "replace") history.replaceState({ conversationId: id }, "", pathFor(id));
  sidebar.setCurrent(id);
  showTitle();
  composer.value = state.drafts.get(id ?? "") ?? "";
  connect(id);
  // On a phone, focusing the box would cover half the conversation with the keyboard.
  if (!narrowScreen.matches) composer.focus();
}

window.addEventListener("popstate", () => open(idFromPath(location.pathname), { history: "none" }));

for (const button of document.querySelectorAll("[data-new-chat]")) {
  button.addEventListener("click", () => open(null));
}
$("[data-new-chat-link]").addEventListener("click", (event) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  open(null);
});

// The blank chat's suggestions are sent as they are written.
$("#welcome").addEventListener("click", (event) => {
  const suggestion = event.target.closest("[data-suggestion]");
  if (suggestion) send(suggestion.dataset.suggestion);
});

// --- older messages ---------------------------------------------------------------------------

// Shown when the server said there is more before the first message shown: the history it sent
// on connect was cut at its limit, or the last page fetched had a next one. Never from counts,
// which a streaming answer or a live outcome puts ahead of what is shown.
const earlier = $("#earlier");
const historyLimit = Number(root.dataset.historyLimit) || Infinity;
function refreshEarlier() {
  earlier.hidden = !(state.moreEarlier && transcript.firstMessageId);
}
earlier.addEventListener("click", async () => {
  const id = state.conversationId;
  earlier.disabled = true;
  try {
    const page = await conversationsApi.messagesBefore(id, transcript.firstMessageId);
    if (id !== state.conversationId) return;
    const added = transcript.prepend(page.results);
    state.moreEarlier = Boolean(page.next && added);
    refreshEarlier();
  } catch (error) {
    notify(`Earlier messages could not be loaded. ${error.message}`);
  } finally {
    earlier.disabled = false;
  }
});

// --- details switch ---------------------------------------------------------------------------

const detailsToggle = $("#details-toggle");
function showDetails(on) {
  app.dataset.details = on ? "on" : "off";
  detailsToggle.setAttribute("aria-pressed", String(on));
}
function storedDetails() {
  try {
    return localStorage.getItem(DETAILS_KEY) === "1";
  } catch {
    return false;
  }
}
showDetails(storedDetails());
detailsToggle.addEventListener("click", () => {
  const on = app.dataset.details !== "on";
  showDetails(on);
  try {
    localStorage.setItem(DETAILS_KEY, on ? "1" : "0");
  } catch {
    // private browsing may refuse storage; the switch still works for this page
  }
});

// --- the drawer (phones) ----------------------------------------------------------------------

const drawer = $("#sidebar");
const menuButton = $("#menu-button");
const scrim = $("#scrim");
function setDrawer(open) {
  const narrow = narrowScreen.matches;
  const isOpen = narrow && open;
  app.classList.toggle("drawer-open", isOpen);
  menuButton.setAttribute("aria-expanded", String(isOpen));
  drawer.inert = narrow && !isOpen;
  root.inert = isOpen;
  scrim.hidden = !isOpen;
  if (isOpen) drawer.querySelector("[data-new-chat]")?.focus();
  else if (narrow && drawer.contains(document.activeElement)) menuButton.focus();
}
menuButton.addEventListener("click", () => setDrawer(true));
$("#drawer-close").addEventListener("click", () => setDrawer(false));
scrim.addEventListener("click", () => setDrawer(false));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && app.classList.contains("drawer-open")) setDrawer(false);
});
narrowScreen.addEventListener("change", () => setDrawer(false));

// --- start ------------------------------------------------------------------------------------

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") state.socket?.retryNow();
});

history.replaceState({ conversationId: state.conversationId }, "", location.href);
setDrawer(false);
sidebar.setCurrent(state.conversationId);
showTitle();
transcript.clear({ loading: Boolean(state.conversationId) });
connect(state.conversationId);
sidebar.load();
if (!narrowScreen.matches) composer.focus(); // on a phone, the keyboard would cover the page
