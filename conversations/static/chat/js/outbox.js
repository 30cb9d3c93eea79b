// The outbox kept in the browser: every message written and not yet acknowledged by the server,
// in localStorage under a key per user and conversation, so that a reload, a server restart or a
// new sign-in loses none of them. The socket sends each again with its client_message_id, which
// the server answers once (a message it stored already is answered from the stored turn).
//
// Each change reads the key again before writing it, so two tabs on one conversation add to the
// list instead of overwriting each other. Another user signing in on this browser has other keys:
// their page never sees, shows or sends these messages.

const PREFIX = "omniforge.outbox";
const BLANK = "new"; // a blank chat's messages, until the first one creates its conversation

export function outboxKey(userId, conversationId) {
  return `${PREFIX}.${userId}.${conversationId || BLANK}`;
}

function valid(entry) {
  return (
    entry &&
    typeof entry.clientMessageId === "string" &&
    entry.clientMessageId !== "" &&
    typeof entry.content === "string"
  );
}

function read(key) {
  try {
    const entries = JSON.parse(localStorage.getItem(key) ?? "[]");
    return Array.isArray(entries) ? entries.filter(valid) : [];
  } catch {
    return []; // storage refused (private browsing) or a value that is not ours
  }
}

function write(key, entries) {
  try {
    if (entries.length) localStorage.setItem(key, JSON.stringify(entries));
    else localStorage.removeItem(key);
  } catch {
    // storage refused or full: the messages are still sent from memory while the page is open
  }
}

/** The conversation was deleted: what was kept for it will never be sent. */
export function outboxForget(userId, conversationId) {
  write(outboxKey(userId, conversationId), []);
}

export class StoredOutbox {
  /**
   * @param {string} userId  the signed-in user (the page's data-user-id)
   * @param {string|null} conversationId  null for a blank chat
   */
  constructor(userId, conversationId) {
    this.userId = userId;
    this.key = outboxKey(userId, conversationId);
  }

  /** [{clientMessageId, content}] in the order they were written. */
  load() {
    return read(this.key);
  }

  add({ clientMessageId, content }) {
    const entries = read(this.key).filter((entry) => entry.clientMessageId !== clientMessageId);
    entries.push({ clientMessageId, content });
    write(this.key, entries);
  }

  remove(clientMessageId) {
    const entries = read(this.key);
    const left = entries.filter((entry) => entry.clientMessageId !== clientMessageId);
    if (left.length !== entries.length) write(this.key, left);
  }

  /** A blank chat's first message created its conversation: its other messages follow it. */
  moveTo(conversationId, entries) {
    for (const entry of entries) this.remove(entry.clientMessageId);
    this.key = outboxKey(this.userId, conversationId);
    for (const entry of entries) this.add(entry);
  }
}
