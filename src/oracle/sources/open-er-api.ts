import { z } from "zod";
import { DAILY_MAX_AGE_SECONDS, firstIssue, malformed, oneNumber, type SourceAdapter } from "./adapter";

/**
 * ExchangeRate-API's open endpoint: `GET https://open.er-api.com/v6/latest/USD`, no key. A daily
 * reference rate: `{ result: "success", base_code, time_last_update_unix, time_next_update_unix, rates: { NGN, ... } }`;
 * failures answer `{ result: "error", "error-type": ... }`.
 */
const body = z.object({
  result: z.literal("success"),
  base_code: z.string(),
  time_last_update_unix: z.number().int().positive(),
  rates: z.record(z.string(), z.unknown()),
});
const failure = z.object({ result: z.literal("error"), "error-type": z.string().optional() });

export const openErApi: SourceAdapter = {
  maxAgeSeconds: DAILY_MAX_AGE_SECONDS,
  parse(input, pair) {
    const error = failure.safeParse(input);
    if (error.success) return { ok: false, reason: `source error: ${error.data["error-type"] ?? "unknown"}` };
    const result = body.safeParse(input);
    if (!result.success) return malformed(firstIssue(result.error));
    const { base_code, time_last_update_unix, rates } = result.data;
    if (base_code !== pair.base) return malformed(`base_code is ${base_code}, not ${pair.base}`);
    const value = rates[pair.quote];
    if (typeof value !== "number") return malformed(`rates.${pair.quote} is not a number`);
    return oneNumber(value, time_last_update_unix * 1000);
  },
};
