import { z } from "zod";
import { firstIssue, malformed, price, type SourceAdapter, twoSided } from "./adapter";

/**
 * Bitstamp's ticker: `GET https://www.bitstamp.net/api/v2/ticker/ethusd/` (or `solusd`), public.
 * `{ timestamp, open, high, low, last, volume, vwap, bid, ask, side, open_24, percent_change_24 }`: prices
 * and `timestamp` (unix seconds) are decimal strings. The pair is in the URL only.
 */
const seconds = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d+$/, "must be unix seconds")
    .transform(Number)
    .refine((n) => n > 0, "must be positive"),
]);
const body = z.object({ timestamp: seconds, bid: price, ask: price });

export const bitstamp: SourceAdapter = {
  parse(input) {
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { timestamp, bid, ask } = result.data;
    return twoSided(bid, ask, timestamp * 1000);
  },
};
