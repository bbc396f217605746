import { address, fill, h, pill, table } from "./dom.js";
import { ago, shortAddress } from "./format.js";
import { quoteHref, resolverHref, takerHref } from "./routes.js";
import { shortId, swapOf } from "./summaries.js";

/**
 * A list of quotes as `GET /v1/quotes` pages them (docs/api.md, "Lists of quotes"): each quote links to
 * its page, its taker to the taker's and its winner to the resolver's. `leave` drops a column a page
 * already names (the taker's own page needs no taker column).
 *
 * @param {any} config
 * @param {any[]} quotes
 * @param {number} now
 * @param {{id?: string, leave?: "taker" | "resolver"}} [options]
 */
export function quotesTable(config, quotes, now, { id, leave } = {}) {
  const columns = ["Quote", "When", "Swap", "Status", "Taker", "Winner"].filter(
    (c) => !(leave === "taker" && c === "Taker") && !(leave === "resolver" && c === "Winner"),
  );
  const rows = quotes.map((q) => {
    const cells = {
      Quote: h(
        "a",
        { href: quoteHref(q.quoteId), title: q.quoteId, class: "quote-link" },
        h("code", {}, shortId(q.quoteId)),
      ),
      When: h("time", { datetime: q.quotedAt, title: q.quotedAt }, ago(q.quotedAt, now)),
      Swap: swapOf(config, q),
      Status: pill(q.status),
      Taker: h("a", { href: takerHref(q.taker), class: "taker-link" }, address(q.taker, shortAddress(q.taker))),
      Winner: q.resolver
        ? h(
            "a",
            { href: resolverHref(q.resolver.address), class: "resolver-link", title: q.resolver.address },
            q.resolver.name,
          )
        : "none",
    };
    return columns.map((c) => cells[c]);
  });
  const el = table(columns, rows, id ? { id } : {});
  el.querySelectorAll("tbody tr").forEach((tr, i) => {
    tr.setAttribute("data-quote-id", quotes[i].quoteId);
  });
  return el;
}

/**
 * A list read a page at a time with a "More" button that follows `nextCursor` (docs/api.md, "Lists").
 *
 * @param {{
 *   read: (cursor: string | null) => Promise<{items: any[], nextCursor: string | null}>,
 *   render: (items: any[]) => Node,
 *   empty: string,
 *   id: string,
 * }} list
 * @returns {HTMLElement} filled as the pages arrive
 */
export function pagedList({ read, render, empty, id }) {
  const root = h("div", { id, class: "paged" }, h("p", { class: "muted" }, "Loading…"));
  const items = [];
  let cursor = null;
  const more = async (button) => {
    if (button) {
      button.disabled = true;
      button.textContent = "Loading…";
    }
    try {
      const page = await read(cursor);
      items.push(...page.items);
      cursor = page.nextCursor;
      fill(root, items.length ? render(items) : h("p", { class: "muted" }, empty), cursor ? moreButton() : null);
    } catch (e) {
      fill(
        root,
        items.length ? render(items) : null,
        h("p", { class: "problem", role: "alert" }, e.message),
        moreButton(),
      );
    }
  };
  const moreButton = () => {
    const button = h("button", { type: "button", class: "more" }, "More");
    button.addEventListener("click", () => more(button));
    return button;
  };
  more(null);
  return root;
}
