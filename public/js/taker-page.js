import { getConfig, getJson } from "./api.js";
import { tokenOf } from "./corridors.js";
import { fill, h, pill, problem, table } from "./dom.js";
import { ago, dateTime, units } from "./format.js";
import { pagedList, quotesTable } from "./quote-list.js";
import { quoteHref } from "./routes.js";
import { shortId } from "./summaries.js";

/** A page of a list: enough for a phone's screen or two. */
const PAGE = 20;

/**
 * A taker's page (`#/takers/<address>`): its swaps (`GET /v1/quotes?taker=`) and its limit orders
 * (`GET /v1/limit-orders?taker=`), newest first, each list with a "More" button that follows
 * `nextCursor` (docs/api.md, "Lists").
 *
 * @param {HTMLElement} root
 * @param {string} taker
 * @returns {{stop: () => void}}
 */
export function showTaker(root, taker) {
  fill(root, h("p", { class: "muted" }, `Loading taker ${taker}…`));
  let stopped = false;
  getConfig()
    .then((config) => {
      if (stopped) return;
      const query = (cursor) =>
        `taker=${encodeURIComponent(taker)}&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const now = Date.now();
      const swaps = pagedList({
        id: "taker-quotes",
        empty: "No quote for this taker.",
        read: async (cursor) => {
          const page = await getJson(`/v1/quotes?${query(cursor)}`);
          return { items: page.quotes, nextCursor: page.nextCursor };
        },
        render: (quotes) => quotesTable(config, quotes, now, { id: "taker-quote-table", leave: "taker" }),
      });
      const evm = /^0x[0-9a-fA-F]{40}$/.test(taker);
      const orders =
        config.limitOrders === null
          ? h("p", { class: "muted" }, "Limit orders are off on this relay.")
          : !evm
            ? h("p", { class: "muted" }, "Limit orders are for EVM takers only.")
            : pagedList({
                id: "taker-orders",
                empty: "No limit order for this taker.",
                read: async (cursor) => {
                  const page = await getJson(`/v1/limit-orders?${query(cursor)}`);
                  return { items: page.limitOrders, nextCursor: page.nextCursor };
                },
                render: (list) => ordersTable(config, list, now),
              });
      fill(
        root,
        h(
          "section",
          { id: "taker", "aria-labelledby": "taker-title" },
          h("h2", { id: "taker-title" }, "Taker"),
          h("p", {}, h("code", { class: "wrap", id: "taker-address" }, taker)),
        ),
        h("section", { id: "swaps", "aria-labelledby": "swaps-title" }, h("h2", { id: "swaps-title" }, "Swaps"), swaps),
        h(
          "section",
          { id: "limit-orders", "aria-labelledby": "limit-orders-title" },
          h("h2", { id: "limit-orders-title" }, "Limit orders"),
          orders,
        ),
      );
    })
    .catch((e) => {
      if (!stopped) fill(root, problem("Could not read the relay.", e.message));
    });
  return {
    stop: () => {
      stopped = true;
    },
  };
}

function ordersTable(config, orders, now) {
  return table(
    ["Order", "Created", "Sells", "At least", "Status", "Expires", "Fill"],
    orders.map((o) => {
      const sell = tokenOf(config, o.chainId, o.sellToken);
      const buy = tokenOf(config, o.chainId, o.buyToken);
      return [
        h("code", { title: o.limitOrderId }, shortId(o.limitOrderId)),
        h("time", { datetime: o.createdAt, title: o.createdAt }, ago(o.createdAt, now)),
        `${units(o.sellAmount, sell.decimals)} ${sell.symbol}`,
        `${units(o.limitAmount, buy.decimals)} ${buy.symbol}`,
        h("span", {}, pill(o.status), o.lastError ? h("span", { class: "detail muted wrap" }, o.lastError) : null),
        dateTime(o.expiresAt),
        o.quoteId ? h("a", { href: quoteHref(o.quoteId), title: o.quoteId }, h("code", {}, shortId(o.quoteId))) : "—",
      ];
    }),
    { id: "taker-order-table" },
  );
}
