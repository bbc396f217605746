import { z } from "zod";
import { firstIssue, malformed, price, type SourceAdapter, twoSided } from "./adapter";

/**
 * Quidax, a Nigerian exchange: `GET https://app.quidax.io/api/v1/markets/tickers/usdtngn`, public.
 * `{ status, message, data: { at, ticker: { buy, sell, low, high, open, last, vol } } }`: `buy` is the
 * best bid, `sell` the best ask, both decimal strings; `at` is unix seconds.
 */
const body = z.object({
  data: z.object({
    at: z.number().int().positive(),
    ticker: z.object({ buy: price, sell: price }),
  }),
});

export const quidax: SourceAdapter = {
  parse(input) {
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { at, ticker } = result.data.data;
    return twoSided(ticker.buy, ticker.sell, at * 1000);
  },
};
