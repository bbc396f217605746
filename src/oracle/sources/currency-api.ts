import { z } from "zod";
import { DAILY_MAX_AGE_SECONDS, firstIssue, malformed, oneNumber, type SourceAdapter } from "./adapter";

/**
 * fawazahmed0's currency-api, a daily reference rate on a CDN:
 * `GET https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/usd.json`.
 * `{ date: "YYYY-MM-DD", usd: { ngn, eur, ... } }`, codes in lower case, rates as JSON numbers.
 */
const body = z.object({ date: z.iso.date() }).catchall(z.unknown());
const rates = z.record(z.string(), z.unknown());

export const currencyApi: SourceAdapter = {
  maxAgeSeconds: DAILY_MAX_AGE_SECONDS,
  parse(input, pair) {
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const base = pair.base.toLowerCase();
    const table = rates.safeParse(result.data[base]);
    if (!table.success) return malformed(`${base}: ${firstIssue(table.error)}`);
    const value = table.data[pair.quote.toLowerCase()];
    if (typeof value !== "number") return malformed(`${base}.${pair.quote.toLowerCase()} is not a number`);
    // The date names the day the rates are for; they are published from its first minutes (UTC).
    return oneNumber(value, Date.parse(`${result.data.date}T00:00:00Z`));
  },
};
