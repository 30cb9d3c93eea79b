// Message text to DOM: Markdown through marked, then always through DOMPurify.
//
// Raw HTML inside a message is shown as the text it is (a person who writes "<b>" sees "<b>"),
// and whatever marked produces is sanitized against a short allow-list anyway: no images, no
// forms, no styles, no classes (message text must never dress up as the page's own controls).

import { Marked } from "../vendor/marked.esm.js";
import DOMPurify from "../vendor/purify.es.mjs";

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    // Images are not shown in a chat transcript; their link is.
    image({ href, text }) {
      return `<a href="${escapeHtml(href ?? "")}">${escapeHtml(text || href || "image")}</a>`;
    },
  },
});

const SANITIZE = {
  ALLOWED_TAGS: [
    "a", "p", "br", "hr", "strong", "b", "em", "i", "del", "s", "code", "pre", "blockquote",
    "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th",
    "td", "span",
  ],
  ALLOWED_ATTR: ["href", "title", "start", "align"],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

// The assistant writes lines, not Markdown paragraphs: a line right after a list item ("Reply
// with a number") is its own paragraph, not the item's lazy continuation. Code is left alone.
const FENCED = /(^ {0,3}(?:```|~~~)[^]*?(?:^ {0,3}(?:```|~~~)[ \t]*$|(?![^])))/m;
const AFTER_ITEM = /^( {0,3}(?:[-*+]|\d{1,9}[.)])[ \t].*)\n(?=[^\s\d*+-])/gm;

function linesAsWritten(text) {
  return text
    .split(FENCED)
    .map((part, index) => (index % 2 ? part : part.replace(AFTER_ITEM, "$1\n\n")))
    .join("");
}

export function renderMarkdown(text) {
  return DOMPurify.sanitize(marked.parse(linesAsWritten(String(text ?? ""))), SANITIZE);
}
