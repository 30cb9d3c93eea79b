// The "where you left off" card: the open wizard (what it gathered, its question) and the
// options last offered, each answering with its number.

import { h, icon } from "./dom.js";

/** The card for a `ready` frame's state, or null when there is nothing to carry on. */
export function resumeCard(state, onDismiss) {
  const wizard = state?.wizard;
  const options = Array.isArray(state?.options) ? state.options : [];
  if (!wizard && !options.length) return null;
  const gathered = Array.isArray(wizard?.gathered) ? wizard.gathered : [];
  return h(
    "section",
    { class: "resume-card", "aria-labelledby": "resume-title" },
    h(
      "div",
      { class: "resume-head" },
      h("span", { class: "resume-kicker" }, icon("bookmark", 14), "Where you left off"),
      h(
        "button",
        {
          type: "button",
          class: "icon-button",
          "aria-label": "Dismiss",
          title: "Dismiss",
          onclick: onDismiss,
        },
        icon("close", 14),
      ),
    ),
    h("h2", { id: "resume-title", class: "resume-title", text: wizard?.title || "Pick one to carry on" }),
    gathered.length
      ? h(
          "dl",
          { class: "resume-gathered" },
          gathered.map((item) =>
            h(
              "div",
              { class: "resume-field" },
              h("dt", { text: item.label || item.field }),
              h("dd", { text: item.value }),
            ),
          ),
        )
      : null,
    wizard?.question ? h("p", { class: "resume-question", text: wizard.question }) : null,
    options.length
      ? h(
          "div",
          { class: "resume-options", role: "group", "aria-label": "Options" },
          options.map((option) =>
            h(
              "button",
              { type: "button", class: "option-button", dataset: { choice: String(option.n) } },
              h("span", { class: "option-number", text: String(option.n) }),
              h("span", { class: "option-label", text: option.label }),
              icon("arrow", 14),
            ),
          ),
        )
      : null,
  );
}
