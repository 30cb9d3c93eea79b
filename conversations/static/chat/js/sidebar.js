// The sidebar: the user's conversations, newest activity first, kept true by `conversation`
// frames; rename in place (PATCH) and delete after a confirmation (DELETE).

import { conversationsApi } from "./api.js";
import { h, icon } from "./dom.js";

export const UNTITLED = "New conversation";
const DAY_MS = 24 * 60 * 60 * 1000;

export function titleOf(conversation) {
  return conversation?.title?.trim() || UNTITLED;
}

function newestFirst(a, b) {
  const byTime = Date.parse(b.updated_at || 0) - Date.parse(a.updated_at || 0);
  if (byTime) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function groupName(iso, now = new Date()) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "Older";
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const time = date.getTime();
  if (time >= startOfToday) return "Today";
  if (time >= startOfToday - DAY_MS) return "Yesterday";
  if (time >= startOfToday - 7 * DAY_MS) return "Previous 7 days";
  if (time >= startOfToday - 30 * DAY_MS) return "Previous 30 days";
  return "Older";
}

function actionButton(action, label, tip, iconName) {
  return h(
    "button",
    {
      type: "button",
      class: action === "delete" ? "icon-button danger" : "icon-button",
      dataset: { action },
      "aria-label": label,
      title: tip,
    },
    icon(iconName, 15),
  );
}

export class Sidebar {
  /**
   * @param {object} options
   * @param {HTMLElement} options.list  where the groups of conversations go
   * @param {HTMLElement} options.empty  shown when there is none
   * @param {HTMLButtonElement} options.more  "Show more" (the next page of the list)
   * @param {HTMLDialogElement} options.dialog  the delete confirmation
   * @param {(id: string) => void} options.onOpen
   * @param {(id: string) => void} options.onDeleted  the user deleted one from here
   * @param {() => void} options.onChange  titles or counts changed
   * @param {(text: string) => void} options.notify
   */
  constructor({ list, empty, more, dialog, onOpen, onDeleted, onChange, notify }) {
    Object.assign(this, { list, empty, more, dialog, onOpen, onDeleted, onChange, notify });
    this.items = new Map();
    this.removed = new Set(); // deleted while the list was loading: not to be brought back
    this.currentId = null;
    this.nextUrl = null;
    this.editingId = null;
    this.dirty = false;
    this.list.addEventListener("click", (event) => this.clicked(event));
    this.more.addEventListener("click", () => this.load(this.nextUrl));
  }

  async load(url) {
    this.more.disabled = true;
    try {
      const page = await conversationsApi.list(url);
      for (const conversation of page.results) {
        if (!this.removed.has(conversation.id) && !this.items.has(conversation.id)) {
          this.items.set(conversation.id, conversation);
        }
      }
      this.nextUrl = page.next;
      this.render();
      this.onChange();
    } catch (error) {
      this.notify(`Your conversations could not be loaded. ${error.message}`);
    } finally {
      this.more.disabled = false;
      this.more.hidden = !this.nextUrl;
    }
  }

  get(id) {
    return id ? this.items.get(id) : undefined;
  }

  upsert(conversation) {
    if (!conversation?.id) return;
    this.removed.delete(conversation.id);
    this.items.set(conversation.id, { ...this.items.get(conversation.id), ...conversation });
    this.render();
    this.onChange();
  }

  /** Activity in a conversation moves it to the top, as the server's order would. */
  touch(id, { updatedAt, messages = 0 } = {}) {
    const conversation = this.items.get(id);
    if (!conversation) return;
    conversation.updated_at = updatedAt || new Date().toISOString();
    conversation.message_count = (conversation.message_count || 0) + messages;
    this.render();
  }

  remove(id) {
    this.removed.add(id);
    if (!this.items.delete(id)) return;
    this.render();
    this.onChange();
  }

  setCurrent(id) {
    this.currentId = id || null;
    for (const row of this.list.querySelectorAll(".conv")) {
      const current = row.dataset.id === this.currentId;
      row.classList.toggle("is-current", current);
      const link = row.querySelector(".conv-link");
      if (current) link?.setAttribute("aria-current", "page");
      else link?.removeAttribute("aria-current");
    }
  }

  render() {
    if (this.editingId) {
      this.dirty = true; // re-rendered when the rename ends, not under the user's cursor
      return;
    }
    this.dirty = false;
    const focusedId = document.activeElement?.closest?.(".conv")?.dataset.id;
    const focusedAction = document.activeElement?.dataset?.action ?? "open";
    const groups = new Map();
    for (const conversation of [...this.items.values()].sort(newestFirst)) {
      const name = groupName(conversation.updated_at);
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(conversation);
    }
    this.list.replaceChildren(
      ...[...groups].map(([name, conversations], index) =>
        h(
          "section",
          { class: "conv-group", "aria-labelledby": `conv-group-${index}` },
          h("h3", { class: "conv-group-title", id: `conv-group-${index}`, text: name }),
          h("ul", { class: "conv-items", role: "list" }, conversations.map((c) => this.item(c))),
        ),
      ),
    );
    this.empty.hidden = this.items.size > 0;
    this.setCurrent(this.currentId);
    if (focusedId) this.focus(focusedId, focusedAction);
  }

  item(conversation) {
    const title = titleOf(conversation);
    return h(
      "li",
      { class: "conv", dataset: { id: conversation.id } },
      h("a", {
        class: "conv-link",
        href: `/c/${encodeURIComponent(conversation.id)}/`,
        title,
        dataset: { action: "open" },
        text: title,
      }),
      h(
        "div",
        { class: "conv-actions" },
        actionButton("rename", `Rename “${title}”`, "Rename", "pencil"),
        actionButton("delete", `Delete “${title}”`, "Delete", "trash"),
      ),
    );
  }

  focus(id, action = "open") {
    const row = this.list.querySelector(`.conv[data-id="${CSS.escape(id)}"]`);
    row?.querySelector(`[data-action="${action}"]`)?.focus();
  }

  clicked(event) {
    const control = event.target.closest("[data-action]");
    const row = control?.closest(".conv");
    if (!row) return;
    const id = row.dataset.id;
    const action = control.dataset.action;
    if (action === "open") {
      // Let the browser open a new tab or window the usual way; a plain click stays here.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      this.onOpen(id);
    } else if (action === "rename") {
      this.startRename(id);
    } else if (action === "delete") {
      this.confirmDelete(id);
    }
  }

  // --- rename ---------------------------------------------------------------------------------

  startRename(id) {
    const conversation = this.items.get(id);
    const row = this.list.querySelector(`.conv[data-id="${CSS.escape(id)}"]`);
    if (!conversation || !row) return;
    this.editingId = id;
    const input = h("input", {
      class: "conv-rename",
      type: "text",
      maxlength: 200,
      value: conversation.title || "",
      placeholder: UNTITLED,
      "aria-label": "Conversation title",
      autocomplete: "off",
    });
    let finished = false;
    const finish = async (save) => {
      if (finished) return;
      finished = true;
      await this.finishRename(id, save ? input.value : null);
    };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing && event.keyCode !== 229) {
        event.preventDefault();
        finish(true);
      } else if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        finish(false);
      }
    });
    input.addEventListener("blur", () => finish(true));
    row.classList.add("is-editing");
    row.querySelector(".conv-link").replaceWith(input);
    input.focus();
    input.select();
  }

  async finishRename(id, value) {
    const conversation = this.items.get(id);
    const title = value?.trim();
    const changed = conversation && title && title !== (conversation.title || "").trim();
    if (value !== null && conversation && !title) this.notify("A title cannot be empty.");
    if (changed) {
      const before = conversation.title;
      conversation.title = title; // shown at once; put back if the server refuses
      this.editingId = null;
      this.render();
      this.focus(id, "rename");
      this.onChange();
      try {
        this.upsert(await conversationsApi.rename(id, title));
      } catch (error) {
        const current = this.items.get(id);
        if (current) current.title = before;
        this.render();
        this.onChange();
        this.notify(`The conversation could not be renamed. ${error.message}`);
      }
      return;
    }
    this.editingId = null;
    this.render();
    this.focus(id, "rename");
  }

  // --- delete ---------------------------------------------------------------------------------

  async confirmDelete(id) {
    const conversation = this.items.get(id);
    if (!conversation) return;
    this.dialog.querySelector("[data-dialog-title]").textContent = "Delete this conversation?";
    this.dialog.querySelector("[data-dialog-text]").textContent =
      `“${titleOf(conversation)}” and all its messages will be deleted for good.`;
    const confirmed = await new Promise((resolve) => {
      const closed = () => resolve(this.dialog.returnValue === "confirm");
      this.dialog.addEventListener("close", closed, { once: true });
      this.dialog.returnValue = "";
      this.dialog.showModal();
      this.dialog.querySelector('[value="cancel"]').focus();
    });
    if (!confirmed) {
      this.focus(id, "delete");
      return;
    }
    const row = this.list.querySelector(`.conv[data-id="${CSS.escape(id)}"]`);
    const next = row?.nextElementSibling?.dataset.id ?? row?.previousElementSibling?.dataset.id;
    try {
      await conversationsApi.remove(id);
    } catch (error) {
      if (error.status !== 404) {
        this.notify(`The conversation could not be deleted. ${error.message}`);
        return;
      }
    }
    this.remove(id);
    this.onDeleted(id);
    if (next) this.focus(next);
  }
}
