import { address, h, pill, svg, table } from "./dom.js";
import { shortAddress, units } from "./format.js";
import { legsOf } from "./legs.js";
import { resolverHref } from "./routes.js";

/**
 * The legs of a quote filled by several makers (docs/legs.md, docs/explorer.md): a bar of the sale split
 * by leg, then each leg's resolver, the part it sells, what it delivers, its share and, once the fill
 * landed, its own fill event. Null for a quote of one leg, which its winner and offers already show.
 *
 * @param {any} quote the record
 * @param {{symbol: string, decimals: number}} sell
 * @param {{symbol: string, decimals: number}} buy
 */
export function legSection(quote, sell, buy) {
  const legs = legsOf(quote);
  if (!legs.length) return null;
  const amount = (token, value) => `${units(value, token.decimals)} ${token.symbol}`;
  return h(
    "section",
    { id: "legs", "aria-labelledby": "legs-title" },
    h("h2", { id: "legs-title" }, `Legs (${legs.length})`),
    h(
      "p",
      { class: "muted" },
      `Filled by ${legs.length} makers together, each selling its part of the ${amount(sell, quote.sellAmount)}: `,
      "one transaction, every leg or none.",
    ),
    svg(
      "svg",
      { class: "leg-bar", viewBox: "0 0 10000 100", preserveAspectRatio: "none", role: "img", "aria-label": "Shares" },
      legs.map((leg, i) =>
        svg(
          "rect",
          { class: `leg-${i % 4}`, x: leg.bar.from, y: 0, width: leg.bar.width, height: 100 },
          svg("title", {}, `${leg.name}: ${leg.share}`),
        ),
      ),
    ),
    table(
      ["Leg", "Resolver", "Sells", "Delivers", "Share", "Fill"],
      legs.map((leg, i) => [
        h("span", {}, h("span", { class: `leg-key leg-${i % 4}` }), ` ${i + 1}`),
        h(
          "span",
          {},
          h("a", { href: resolverHref(leg.resolver) }, h("strong", {}, leg.name)),
          " ",
          address(leg.resolver, shortAddress(leg.resolver)),
        ),
        amount(sell, leg.sellAmount),
        amount(buy, leg.outputAmount),
        leg.share,
        leg.fill
          ? h(
              "span",
              {},
              pill("filled", "settled"),
              ` log ${leg.fill.logIndex} `,
              address(leg.fill.orderHash, shortAddress(leg.fill.orderHash)),
            )
          : h("span", { class: "muted" }, "not yet"),
      ]),
      { id: "leg-table" },
    ),
  );
}
