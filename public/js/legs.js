/**
 * A quote's legs as its page draws them (docs/legs.md, "For takers"; docs/explorer.md): the makers whose
 * parts fill it together, each with its part, its output, its share of the sale and, once the fill
 * landed, its own fill event. Pure: unit-tested in Node against records of the relay's shape.
 */
import { shortAddress } from "./format.js";

const sameAddress = (a, b) => a.toLowerCase() === b.toLowerCase();

/**
 * `60 %`, `33.33 %`: `part` of `whole` to two decimals at most, rounded down, so the shares never add up
 * to more than the whole.
 *
 * @param {bigint} part
 * @param {bigint} whole
 */
export function shareOf(part, whole) {
  const bps = whole > 0n ? (part * 10_000n) / whole : 0n;
  const fraction = (bps % 100n).toString().padStart(2, "0").replace(/0+$/, "");
  return `${bps / 100n}${fraction ? `.${fraction}` : ""} %`;
}

/**
 * The legs of a quote filled by several makers, in the record's order; none for a quote of one leg (a
 * whole bid, shown as its winner) or of no winner. Each leg's name is its offer's; its fill is the
 * record's `fills` entry of its resolver (one `RfqFilled` per leg), null until the fill landed.
 *
 * @param {{sellAmount: string, legs?: Array<{resolver: string, sellAmount: string, outputAmount: string}>,
 *   offers: Array<{resolver: string, name: string, won: boolean}>,
 *   fills?: Array<{resolver: string, orderHash: string, logIndex: number}>}} quote
 */
export function legsOf(quote) {
  const legs = quote.legs ?? [];
  if (legs.length < 2) return [];
  const whole = BigInt(quote.sellAmount);
  let from = 0;
  return legs.map((leg) => {
    const offer = quote.offers.find((o) => o.won && sameAddress(o.resolver, leg.resolver));
    // Where the leg's bar starts and how wide it is, in hundredths of a percent of the sale.
    const bar = { from, width: Number((BigInt(leg.sellAmount) * 10_000n) / whole) };
    from += bar.width;
    return {
      ...leg,
      name: offer?.name ?? shortAddress(leg.resolver),
      share: shareOf(BigInt(leg.sellAmount), whole),
      bar,
      fill: (quote.fills ?? []).find((f) => sameAddress(f.resolver, leg.resolver)) ?? null,
    };
  });
}
