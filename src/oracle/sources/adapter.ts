import { z } from "zod";
import type { AssetPair, Reading } from "../types";

export type ParseResult = { ok: true; reading: Reading } | { ok: false; reason: string };

/** Reads one public source's response format. Pure: the body is already parsed JSON. */
export interface SourceAdapter {
  parse(body: unknown, pair: AssetPair): ParseResult;
  /**
   * How old a figure of this format may be before it is stale, for a source that sets no limit of its
   * own; absent for live markets, which take the oracle's `maxAgeSeconds`.
   */
  readonly maxAgeSeconds?: number;
}

/**
 * A daily reference rate stays the day's rate until the next publication, which can land hours late:
 * its formats are held to two days, not to a live market's minute (docs/oracle.md).
 */
export const DAILY_MAX_AGE_SECONDS = 2 * 86_400;

/** Exchanges send prices as decimal strings, reference feeds as JSON numbers; both are accepted. */
export const price = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, "must be a decimal number")
    .transform(Number),
]);

/** Floating sums such as 1452.1 + 1455.9 leave noise in the last bits; a millionth of a naira is far below a kobo. */
export const roundRate = (x: number): number => Math.round(x * 1e6) / 1e6;

export const twoSided = (bid: number, ask: number, at: number | null): ParseResult => ({
  ok: true,
  reading: { bid, ask, value: roundRate((bid + ask) / 2), at },
});

export const oneNumber = (value: number, at: number | null): ParseResult => ({
  ok: true,
  reading: { bid: null, ask: null, value, at },
});

export const malformed = (reason: string): ParseResult => ({ ok: false, reason: `malformed: ${reason}` });

/** The first zod issue as `path: message`, enough for an operator to see what changed upstream. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unexpected shape";
  return `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`;
}
