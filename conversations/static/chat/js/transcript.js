// The transcript: messages, the answer streaming in, the intent badge, the "where you left off"
// card, and numbered items that answer with their number.

import { fill, h, icon } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { resumeCard } from "./resume.js";

const METHOD_LABELS = { fast_path: "Fast path", llm: "LLM", offline: "Offline" };
const STICK_TO_BOTTOM_PX = 96;

export function methodLabel(method) {
  return METHOD_LABELS[method] ?? (method ? String(method) : "Unknown");
}

function formatTime(iso) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return {
    short: date.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" }),
    long: date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }),
  };
}

export class Transcript {
  /**
   * @param {object} options
   * @param {HTMLElement} options.log  the role="log" element the messages go in
   * @param {HTMLElement} options.scroller  the scrolling container around it
   * @param {HTMLElement} options.empty  the blank chat's welcome, shown while there is no message
   * @param {HTMLElement} options.resume  where the "where you left off" card goes
   * @param {HTMLElement} options.loading  shown while a conversation's history is on its way
   * @param {string} options.logoUrl
   * @param {(n: number) => void} options.onChoice  a numbered item or option was chosen
   * @param {(clientMessageId: string) => void} options.onRetry  "Retry" on a message not sent
   */
  constructor({ log, scroller, empty, resume, loading, logoUrl, onChoice, onRetry }) {
    Object.assign(this, { log, scroller, empty, resume, loading, logoUrl, onChoice, onRetry });
    this.streaming = null; // {el, body, text, intent, frame}
    this.connected = false; // a message on its way is "Sending…" when true, else "Not sent yet"
    this.log.addEventListener("click", (event) => this.clicked(event));
    this.log.addEventListener("keydown", (event) => this.keyed(event));
    this.resume.addEventListener("click", (event) => this.clicked(event));
  }

  // --- whole transcript ---------------------------------------------------------------------

  clear({ loading = false } = {}) {
    this.streaming = null;
    this.log.replaceChildren();
    this.hideResume();
    this.loading.hidden = !loading;
    this.refreshEmpty();
  }

  setHistory(messages) {
    this.streaming = null;
    this.log.replaceChildren(...messages.map((message) => this.messageElement(message)));
    this.refreshChoices();
    this.loading.hidden = true;
    this.refreshEmpty();
    this.scrollToEnd();
  }

  /** Older messages, fetched page by page: above the others, keeping the reader's place. */
  prepend(messages) {
    const before = this.scroller.scrollHeight - this.scroller.scrollTop;
    const fresh = messages.filter((m) => !this.byId(m.id)).map((m) => this.messageElement(m));
    this.log.prepend(...fresh);
    this.refreshChoices();
    this.scroller.scrollTop = this.scroller.scrollHeight - before;
    return fresh.length;
  }

  get messageCount() {
    return this.log.querySelectorAll(".msg[data-message-id]").length;
  }

  get firstMessageId() {
    return this.log.querySelector(".msg[data-message-id]")?.dataset.messageId ?? null;
  }

  refreshEmpty() {
    this.empty.hidden = !this.loading.hidden || this.log.childElementCount > 0 || !this.resume.hidden;
  }

  byId(id) {
    return id ? this.log.querySelector(`.msg[data-message-id="${CSS.escape(id)}"]`) : null;
  }

  byClientId(clientMessageId) {
    return clientMessageId
      ? this.log.querySelector(`.msg[data-client-id="${CSS.escape(clientMessageId)}"]`)
      : null;
  }

  // --- messages -----------------------------------------------------------------------------

  messageElement(message) {
    return message.role === "user" ? this.userElement(message) : this.assistantElement(message);
  }

  /** A stored message; nothing when it is shown already. */
  addMessage(message) {
    if (this.byId(message.id)) return this.byId(message.id);
    const stick = this.nearEnd();
    const el = this.messageElement(message);
    this.log.append(el);
    this.refreshChoices();
    this.refreshEmpty();
    if (stick) this.scrollToEnd();
    return el;
  }

  userElement({ id, content, created_at: createdAt }) {
    return h(
      "article",
      { class: "msg msg-user", dataset: id ? { messageId: id } : {} },
      h("h3", { class: "sr-only", text: "You said" }),
      h(
        "div",
        { class: "msg-bubble", title: formatTime(createdAt)?.long },
        h("div", { class: "msg-body prose" }, renderMarkdown(content)),
      ),
      h("div", { class: "msg-meta" }),
    );
  }

  assistantElement(message) {
    const el = h(
      "article",
      { class: "msg msg-assistant", dataset: message.id ? { messageId: message.id } : {} },
      h("img", { class: "msg-avatar", src: this.logoUrl, alt: "", width: 28, height: 28 }),
      h(
        "div",
        { class: "msg-main" },
        h("h3", { class: "sr-only", text: "OmniForge answered" }),
        h("div", { class: "msg-body prose" }),
        h("div", { class: "msg-footer" }),
      ),
    );
    this.fillAssistant(el, message);
    return el;
  }

  fillAssistant(el, { content, metadata, created_at: createdAt }, intent = null) {
    const meta = metadata || {};
    const body = el.querySelector(".msg-body");
    body.replaceChildren(renderMarkdown(content));
    // Only an answer that offered something (numbered options, a list of agents) is answered
    // with a number; a wizard's numbered questions or a help list are plain text.
    const offered = (list) => Array.isArray(list) && list.length > 0;
    if (offered(meta.options) || offered(meta.listed_agents)) el.dataset.offers = "";
    else delete el.dataset.offers;
    const footer = el.querySelector(".msg-footer");
    const time = formatTime(createdAt);
    fill(
      footer,
      meta.interrupted
        ? h("span", { class: "tag tag-stopped" }, icon("stop", 12), "Stopped")
        : null,
      badge(meta.intent || intent),
      time ? h("time", { datetime: createdAt, title: time.long, text: time.short }) : null,
      h(
        "button",
        { type: "button", class: "icon-button msg-copy", "aria-label": "Copy answer", title: "Copy" },
        icon("copy"),
      ),
    );
    const copyButton = footer.querySelector(".msg-copy");
    copyButton.addEventListener("click", () => copy(copyButton, content));
    el.classList.toggle("is-interrupted", Boolean(meta.interrupted));
  }

  // The numbered items of the latest answer, when it offered them, answer with their number
  // (keyboard users reach them with Tab). The server only remembers what it offered last, so
  // the items of older answers are text again.
  refreshChoices() {
    const answers = this.log.querySelectorAll(".msg-assistant[data-message-id]");
    const latest = answers[answers.length - 1];
    const offering = latest && "offers" in latest.dataset ? latest : null;
    for (const list of this.log.querySelectorAll("ol.choices")) {
      if (offering?.contains(list)) continue;
      list.classList.remove("choices");
      for (const item of list.querySelectorAll(":scope > li[data-choice]")) {
        for (const name of ["data-choice", "tabindex", "role", "title"]) item.removeAttribute(name);
      }
    }
    if (!offering) return;
    for (const list of offering.querySelectorAll(".msg-body ol")) {
      list.classList.add("choices");
      const start = Number.parseInt(list.getAttribute("start") ?? "1", 10) || 1;
      [...list.children].forEach((item, index) => {
        if (item.tagName !== "LI") return;
        const n = start + index;
        item.dataset.choice = String(n);
        item.tabIndex = 0;
        item.setAttribute("role", "button");
        item.title = `Reply “${n}”`;
      });
    }
  }

  clicked(event) {
    const choice = event.target.closest("[data-choice]");
    if (!choice || event.target.closest("a")) return;
    // Selecting text in an item is reading it, not choosing it.
    if (String(window.getSelection?.() ?? "").trim() && !choice.matches("button")) return;
    event.preventDefault();
    this.onChoice(Number(choice.dataset.choice));
  }

  keyed(event) {
    const choice = event.target.closest?.("li[data-choice]");
    if (!choice || event.target !== choice) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.onChoice(Number(choice.dataset.choice));
    }
  }

  // --- the user's messages on their way -------------------------------------------------------

  addPending(clientMessageId, content) {
    if (this.byClientId(clientMessageId)) return;
    const el = this.userElement({ content });
    el.dataset.clientId = clientMessageId;
    el.dataset.content = content; // for "Retry"
    el.classList.add("is-pending");
    el.querySelector(".msg-meta").replaceChildren(this.pendingState());
    this.hideResume();
    this.log.append(el);
    this.refreshEmpty();
    this.scrollToEnd();
  }

  /** The server stored it: true when this page had written it. */
  confirm(clientMessageId, message) {
    const el = this.byClientId(clientMessageId);
    if (!el) return false;
    const shown = this.byId(message?.id);
    if (shown && shown !== el) {
      el.remove(); // shown already, from the history a reconnect brought
      return true;
    }
    if (message?.id) el.dataset.messageId = message.id;
    el.classList.remove("is-pending", "is-failed");
    el.querySelector(".msg-meta").replaceChildren();
    const time = formatTime(message?.created_at);
    if (time) el.querySelector(".msg-bubble").title = time.long;
    return true;
  }

  fail(clientMessageId, reason) {
    const el = this.byClientId(clientMessageId);
    if (!el) return;
    el.classList.remove("is-pending");
    el.classList.add("is-failed");
    el.querySelector(".msg-meta").replaceChildren(
      h("span", { class: "msg-state" }, icon("alert", 12), reason || "Not sent"),
      h(
        "button",
        { type: "button", class: "link-button", onclick: () => this.onRetry(clientMessageId) },
        "Retry",
      ),
    );
  }

  markPending(clientMessageId) {
    const el = this.byClientId(clientMessageId);
    if (!el) return;
    el.classList.remove("is-failed");
    el.classList.add("is-pending");
    el.querySelector(".msg-meta").replaceChildren(this.pendingState());
  }

  /** The socket is ready (the messages on their way are being sent) or not (they wait). */
  setConnected(connected) {
    if (this.connected === connected) return;
    this.connected = connected;
    for (const el of this.log.querySelectorAll(".msg-user.is-pending")) {
      el.querySelector(".msg-meta").replaceChildren(this.pendingState());
    }
  }

  pendingState() {
    if (this.connected) return h("span", { class: "msg-state" }, icon("clock", 12), "Sending…");
    return h(
      "span",
      { class: "msg-state msg-state-queued", title: "Kept in this browser until it is sent" },
      icon("clock", 12),
      "Not sent yet · sends when connected",
    );
  }

  // --- the answer streaming in ----------------------------------------------------------------

  get isStreaming() {
    return this.streaming !== null;
  }

  startAnswer() {
    if (this.streaming) return this.streaming;
    const el = this.assistantElement({ content: "" });
    el.classList.add("is-streaming");
    // Screen readers hear the whole answer once, when it is done, not every chunk.
    el.setAttribute("aria-busy", "true");
    const body = el.querySelector(".msg-body");
    body.replaceChildren(
      h(
        "div",
        { class: "thinking" },
        h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
        h("span", { class: "thinking-label", text: "Thinking" }),
      ),
    );
    el.querySelector(".msg-footer").replaceChildren();
    this.streaming = { el, body, text: "", intent: null, frame: 0 };
    this.hideResume();
    this.log.append(el);
    this.refreshEmpty();
    this.scrollToEnd();
    return this.streaming;
  }

  setIntent(intent) {
    const turn = this.startAnswer();
    turn.intent = intent;
    fill(turn.el.querySelector(".msg-footer"), badge(intent));
  }

  appendChunk(text) {
    const turn = this.startAnswer();
    turn.text += text;
    // One render per frame however fast the chunks come.
    if (!turn.frame) {
      turn.frame = requestAnimationFrame(() => {
        turn.frame = 0;
        if (this.streaming !== turn) return;
        const stick = this.nearEnd();
        turn.body.replaceChildren(renderMarkdown(turn.text));
        if (stick) this.scrollToEnd();
      });
    }
  }

  /** `done`: the authoritative content replaces what was streamed. */
  finishAnswer(frame) {
    const stored = frame.message || {};
    const message = {
      id: frame.message_id ?? stored.id,
      content: frame.content ?? stored.content ?? this.streaming?.text ?? "",
      created_at: stored.created_at,
      metadata: { ...(stored.metadata || {}) },
    };
    if (frame.interrupted) message.metadata.interrupted = true;
    const turn = this.streaming;
    this.streaming = null;
    if (turn?.frame) cancelAnimationFrame(turn.frame);
    const existing = this.byId(message.id);
    const stick = this.nearEnd();
    let el;
    if (existing) {
      // A re-sent message answered with its stored turn, shown already from the history.
      turn?.el.remove();
      el = existing;
    } else if (turn) {
      el = turn.el;
      if (message.id) el.dataset.messageId = message.id;
    } else {
      el = this.assistantElement({ content: "" });
      if (message.id) el.dataset.messageId = message.id;
      this.log.append(el);
    }
    el.classList.remove("is-streaming");
    this.fillAssistant(el, message, turn?.intent);
    el.removeAttribute("aria-busy");
    this.refreshChoices();
    this.refreshEmpty();
    if (stick) this.scrollToEnd();
  }

  /**
   * Stop was asked for. The server cuts the answer at its next piece; one still thinking (a
   * model call under way) ends when that call returns, so until its `done` the page says so.
   */
  markStopping() {
    const label = this.streaming?.body.querySelector(".thinking-label");
    if (label) label.textContent = "Stopping…";
  }

  /**
   * The answer will not finish here: the socket went away mid-answer (the next `ready` brings
   * what was stored), or the turn failed. What came stays, marked.
   */
  interruptAnswer(reason = "Connection lost") {
    const turn = this.streaming;
    if (!turn) return;
    this.streaming = null;
    if (turn.frame) cancelAnimationFrame(turn.frame);
    if (!turn.text) {
      turn.el.remove();
      this.refreshEmpty();
      return;
    }
    turn.body.replaceChildren(renderMarkdown(turn.text));
    turn.el.classList.remove("is-streaming");
    turn.el.removeAttribute("aria-busy");
    fill(
      turn.el.querySelector(".msg-footer"),
      h("span", { class: "tag tag-stopped" }, icon("alert", 12), reason),
    );
  }

  // --- where you left off --------------------------------------------------------------------

  showResume(state) {
    const card = resumeCard(state, () => this.hideResume());
    if (!card) {
      this.hideResume();
      return;
    }
    this.resume.replaceChildren(card);
    this.resume.hidden = false;
    this.refreshEmpty();
    this.scrollToEnd();
  }

  hideResume() {
    this.resume.replaceChildren();
    this.resume.hidden = true;
  }

  // --- scrolling ------------------------------------------------------------------------------

  nearEnd() {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < STICK_TO_BOTTOM_PX;
  }

  scrollToEnd() {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}

function badge(intent) {
  if (!intent || !intent.action_type) return null;
  const confidence = Number(intent.confidence);
  const confidenceText = Number.isFinite(confidence) ? confidence.toFixed(2) : "–";
  const method = methodLabel(intent.method);
  return h(
    "span",
    {
      class: "badge",
      dataset: { method: intent.method || "" },
      title: `Intent ${intent.action_type}, confidence ${confidenceText}, ${method}`,
    },
    h("span", { class: "badge-intent", text: intent.action_type }),
    h("span", { class: "badge-confidence", text: confidenceText }),
    h("span", { class: "badge-method", text: method }),
  );
}

async function copy(button, text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    return;
  }
  button.replaceChildren(icon("check"));
  button.setAttribute("aria-label", "Copied");
  setTimeout(() => {
    button.replaceChildren(icon("copy"));
    button.setAttribute("aria-label", "Copy answer");
  }, 1500);
}
