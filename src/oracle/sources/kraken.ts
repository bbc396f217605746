import { z } from "zod";
import { firstIssue, malformed, price, type SourceAdapter, twoSided } from "./adapter";

/**
 * Kraken's ticker: `GET https://api.kraken.com/0/public/Ticker?pair=XETHZUSD` (or `SOLUSD`), public.
 * `{ error: [], result: { <pair name>: { a: [ask, wholeLot, lot], b: [bid, wholeLot, lot], c, v, p, t,
 * l, h, o } } }`: prices are decimal strings; no time (the figures are the live book). Failures answer
 * `{ error: ["EQuery:Unknown asset pair"] }`.
 */
const side = z.tuple([price], z.unknown());
const ticker = z.object({ a: side, b: side });
const body = z.object({ error: z.array(z.string()), result: z.record(z.string(), z.unknown()).optional() });

/** Kraken's own names for assets whose code differs from the usual one. */
const KRAKEN_CODES: Record<string, string> = { BTC: "XBT" };

/**
 * Kraken names a pair by its own asset codes, sometimes prefixed (`XETHZUSD`, `SOLUSD`, `XXBTZUSD`):
 * the name must hold the base's code and end with the quote's.
 */
function namesPair(name: string, base: string, quote: string): boolean {
  return name.includes(KRAKEN_CODES[base] ?? base) && name.endsWith(KRAKEN_CODES[quote] ?? quote);
}

export const kraken: SourceAdapter = {
  parse(input, pair) {
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { error, result: tickers } = result.data;
    if (error.length > 0) return { ok: false, reason: `source error: ${error.join(", ")}` };
    const entries = Object.entries(tickers ?? {});
    const found = entries.find(([name]) => namesPair(name, pair.base, pair.quote));
    if (!found) return malformed(`no ${pair.base}/${pair.quote} ticker in result`);
    const t = ticker.safeParse(found[1]);
    if (!t.success) return malformed(`result.${found[0]}.${firstIssue(t.error)}`);
    return twoSided(t.data.b[0], t.data.a[0], null);
  },
};
