/**
 * What a careful client does with each answer to a request it may repeat (docs/operations.md, "Deploys and
 * crashes"): a connection that drops or is refused, or any 5xx, is asked again after a bounded backoff (or
 * the `Retry-After` the relay sent), until a deadline; a 2xx is the answer; any other 4xx is final, 429
 * included once its `Retry-After` would pass the deadline. Pure, so the policy is tested by itself.
 */
import { RelayHttpError } from "../../../src/clients/taker/relay";

/** One attempt's result, as the client saw it. */
export type Attempt =
  | { kind: "answered"; status: number }
  | { kind: "refused"; status: number; code: string; retryAfterS: number | null }
  | { kind: "dropped"; error: string };

export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/** Doubling from a quarter second to 4 s: a restarting relay is back within seconds, and a retry is cheap. */
export const CAREFUL_BACKOFF: Backoff = { firstMs: 250, maxMs: 4_000 };

/** How a thrown error reads as an attempt: the relay's answer, or a connection that never got one. */
export function attemptOf(e: unknown): Attempt {
  if (e instanceof RelayHttpError) {
    const retryAfter = typeof e.body.retryAfter === "number" ? e.body.retryAfter : null;
    return { kind: "refused", status: e.status, code: e.code, retryAfterS: retryAfter };
  }
  const cause = (e as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : null;
  const name = e instanceof Error ? e.name : "Error";
  return { kind: "dropped", error: code ?? (name === "TimeoutError" ? "timeout" : String(e)) };
}

/** Whether the relay may have had nothing to do with the answer not being final: ask again. */
export function isRetryable(attempt: Attempt): boolean {
  if (attempt.kind === "answered") return false;
  if (attempt.kind === "dropped") return true;
  return attempt.status >= 500 || attempt.status === 429;
}

/**
 * The wait before attempt `next` (1-based, after `next` failed ones), or null to stop: the answer is final,
 * or the wait would end past `deadline`. `random` spreads clients that failed together.
 */
export function retryDelay(
  attempt: Attempt,
  next: number,
  now: number,
  deadline: number,
  random: () => number,
  backoff: Backoff = CAREFUL_BACKOFF,
): number | null {
  if (!isRetryable(attempt)) return null;
  const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, next - 1));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const told = attempt.kind === "refused" && attempt.retryAfterS !== null ? attempt.retryAfterS * 1_000 : 0;
  const delay = Math.max(jittered, told);
  return now + delay > deadline ? null : delay;
}
