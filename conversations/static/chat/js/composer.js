// The composer: Enter sends, Shift+Enter starts a new line, an IME composition never sends;
// it grows with its text; while an answer streams, Stop takes the send button's place.

export class Composer {
  /**
   * @param {object} options
   * @param {HTMLFormElement} options.form
   * @param {HTMLTextAreaElement} options.input
   * @param {HTMLButtonElement} options.sendButton
   * @param {HTMLButtonElement} options.stopButton
   * @param {HTMLElement} options.counter  "1,200 characters left" near the limit; over it, by how
   *   much (a paste is never cut silently: the text stays whole and cannot be sent until shorter)
   * @param {(text: string) => boolean} options.onSend  false keeps the text in the box
   * @param {() => void} options.onStop
   */
  constructor({ form, input, sendButton, stopButton, counter, onSend, onStop }) {
    Object.assign(this, { form, input, sendButton, stopButton, counter, onSend, onStop });
    this.composing = false;
    this.busy = false;
    this.maxChars = Number(input.dataset.maxChars) || Infinity;
    input.addEventListener("compositionstart", () => {
      this.composing = true;
    });
    input.addEventListener("compositionend", () => {
      this.composing = false;
    });
    input.addEventListener("keydown", (event) => this.keyed(event));
    input.addEventListener("input", () => this.changed());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    stopButton.addEventListener("click", () => this.onStop());
    this.changed();
  }

  keyed(event) {
    if (event.key !== "Enter" || event.shiftKey) return;
    // keyCode 229: the key went to an input method (Safari ends a composition this way).
    if (event.isComposing || this.composing || event.keyCode === 229) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    this.submit();
  }

  submit() {
    const text = this.input.value.trim();
    if (!text || this.over) return; // the page decides what happens while an answer streams
    if (this.onSend(text) === false) return;
    this.value = "";
  }

  changed() {
    // Grow with the text up to the CSS max-height, then scroll.
    this.input.style.height = "auto";
    // Empty, it keeps the CSS height: a long placeholder must not make it grow.
    if (this.input.value) this.input.style.height = `${this.input.scrollHeight}px`;
    const left = this.maxChars - this.input.value.length;
    this.over = left < 0;
    this.sendButton.disabled = !this.input.value.trim() || this.over;
    const near = Number.isFinite(left) && left <= Math.max(200, this.maxChars * 0.1);
    this.counter.hidden = !near;
    this.counter.classList.toggle("is-over", this.over);
    this.input.setAttribute("aria-invalid", String(this.over));
    const limit = this.maxChars.toLocaleString();
    this.counter.textContent = !near
      ? ""
      : this.over
        ? `${(-left).toLocaleString()} characters over the limit of ${limit}: shorten it to send`
        : `${left.toLocaleString()} characters left`;
  }

  get value() {
    return this.input.value;
  }

  set value(text) {
    this.input.value = text;
    this.changed();
  }

  setBusy(busy) {
    if (this.busy === busy) return;
    this.busy = busy;
    const stopHadFocus = document.activeElement === this.stopButton;
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy;
    this.form.classList.toggle("is-busy", busy);
    if (stopHadFocus && !busy) this.input.focus();
  }

  focus() {
    this.input.focus({ preventScroll: true });
  }
}
