/**
 * Builds elements from data without HTML parsing: every string becomes a text node, so names and reasons
 * that resolvers chose can never become markup.
 *
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string | number | null | undefined | false | Array<Node | string | number | null | undefined | false>)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * Replaces an element's children, skipping the null, undefined and false that conditional parts give.
 *
 * @param {Element} el
 * @param {...unknown} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** @param {Element} el @param {unknown[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** A small labelled state, e.g. `online`, `won`, `final`; its class lets the styles colour it. */
export const pill = (text, kind = text) => h("span", { class: `pill pill-${kind}` }, text);

/** An address shortened for reading, the whole of it in the title and for copying. */
export const address = (value, short) => h("code", { class: "address", title: value }, short);

/**
 * A table that reads as a list of cards on a narrow screen: each cell carries its column's name, which
 * the styles show beside the value below 640 px.
 *
 * @param {string[]} columns
 * @param {Array<Array<Node | string | number | null | undefined>>} rows
 * @param {Record<string, string>} [attrs]
 */
export function table(columns, rows, attrs = {}) {
  return h(
    "table",
    { class: "stack", ...attrs },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        columns.map((c) => h("th", { scope: "col" }, c)),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((cells) =>
        h(
          "tr",
          {},
          cells.map((cell, i) => h("td", { "data-label": columns[i] }, cell ?? "—")),
        ),
      ),
    ),
  );
}

/** A message in place of data that could not be shown, with why. */
export const problem = (title, detail) =>
  h("div", { class: "problem", role: "alert" }, h("strong", {}, title), h("p", {}, detail));

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element, built as `h` builds HTML ones: attributes set as given, strings as text nodes.
 *
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {...unknown} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}
