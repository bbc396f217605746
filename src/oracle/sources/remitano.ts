import { z } from "zod";
import { firstIssue, malformed, price, type SourceAdapter, twoSided } from "./adapter";

/**
 * Remitano, a P2P marketplace: `GET https://api.remitano.com/api/v1/rates/ads`, public. One entry per
 * country, e.g. `{ "ng": { currency: "NGN", btc_bid, btc_ask, eth_bid, eth_ask, usdt_bid, usdt_ask }, ... }`,
 * prices as JSON numbers, no timestamp (the figures are the live adverts).
 */
const body = z.record(z.string(), z.unknown());
const market = z.object({ currency: z.string(), usdt_bid: price, usdt_ask: price });

export const remitano: SourceAdapter = {
  parse(input, pair) {
    const all = body.safeParse(input);
    if (!all.success) return malformed(firstIssue(all.error));
    for (const entry of Object.values(all.data)) {
      const m = market.safeParse(entry);
      if (!m.success || m.data.currency.toUpperCase() !== pair.quote) continue;
      // Remitano's NGN sides have been seen named the other way round (`usdt_bid` above `usdt_ask`);
      // the lower of the two is the bid either way, and the mid does not care.
      const bid = Math.min(m.data.usdt_bid, m.data.usdt_ask);
      const ask = Math.max(m.data.usdt_bid, m.data.usdt_ask);
      return twoSided(bid, ask, null);
    }
    return malformed(`no ${pair.quote} market with usdt_bid and usdt_ask`);
  },
};
