import { z } from "zod";
import { firstIssue, malformed, oneNumber, price, type SourceAdapter } from "./adapter";

/**
 * Coinbase's spot price: `GET https://api.coinbase.com/v2/prices/ETH-USD/spot`, public, no key.
 * `{ data: { amount, base, currency } }`: `amount` is a decimal string of `currency` per one `base`; no
 * time (the figure is the live spot). Failures answer `{ errors: [{ id, message }] }`.
 */
const body = z.object({ data: z.object({ amount: price, base: z.string(), currency: z.string() }) });
const failure = z.object({ errors: z.array(z.object({ id: z.string().optional(), message: z.string().optional() })) });

export const coinbase: SourceAdapter = {
  parse(input, pair) {
    const error = failure.safeParse(input);
    if (error.success) {
      const first = error.data.errors[0];
      return { ok: false, reason: `source error: ${first?.id ?? first?.message ?? "unknown"}` };
    }
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { amount, base, currency } = result.data.data;
    // The URL names the pair; the body says which one it answered, so a misconfigured URL is caught.
    if (base !== pair.base || currency !== pair.quote) {
      return malformed(`prices ${base}/${currency}, not ${pair.base}/${pair.quote}`);
    }
    return oneNumber(amount, null);
  },
};
