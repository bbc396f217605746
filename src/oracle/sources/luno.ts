import { z } from "zod";
import { firstIssue, malformed, price, type SourceAdapter, twoSided } from "./adapter";

/**
 * Luno: `GET https://api.luno.com/api/1/ticker?pair=USDCNGN`, public.
 * `{ pair, timestamp, bid, ask, last_trade, rolling_24_hour_volume, status }`: prices are decimal
 * strings, `timestamp` is unix milliseconds, `status` is `ACTIVE`, `POSTONLY` or `DISABLED`.
 */
const body = z.object({
  timestamp: z.number().int().positive(),
  bid: price,
  ask: price,
  status: z.string().optional(),
});

export const luno: SourceAdapter = {
  parse(input) {
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { timestamp, bid, ask, status } = result.data;
    // Outside ACTIVE trading the book is not being matched, so its top is no price anyone gets.
    if (status !== undefined && status !== "ACTIVE") return { ok: false, reason: `market ${status}` };
    return twoSided(bid, ask, timestamp);
  },
};
