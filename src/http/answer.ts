import type { Context } from "hono";
import { answerLeft } from "../log";

/**
 * Hands `work` to the request's ExecutionContext to finish after the answer (a Worker deployed or under
 * `wrangler dev` always has one); a request made without one (the app called directly, as in tests)
 * waits for it instead.
 */
export async function behindAnswer(c: Context, work: Promise<unknown>): Promise<void> {
  const ctx = executionContextOf(c);
  if (ctx) ctx.waitUntil(work);
  else await work;
}

/**
 * Writes a request's line once its answer has left (`answerLeft`, docs/operations.md, "Logs"); a request
 * made without an ExecutionContext (the app called directly, as in tests) writes it at once, before its
 * answer.
 */
export function lineAfterAnswer(c: Context, write: () => void): void {
  const ctx = executionContextOf(c);
  if (ctx) ctx.waitUntil(answerLeft().then(write));
  else write();
}

function executionContextOf(c: Context): { waitUntil(p: Promise<unknown>): void } | null {
  try {
    return c.executionCtx;
  } catch {
    // Hono throws when the request came without an ExecutionContext.
    return null;
  }
}

/**
 * A `Server-Timing` header value from named phases in milliseconds (docs/api.md, "Server-Timing"), e.g.
 * `auction;dur=21, ranking;dur=0.4`. Workers' clocks advance only across I/O, so a phase of pure
 * computation can read 0.
 */
export function serverTiming(phases: Record<string, number>): string {
  return Object.entries(phases)
    .map(([name, ms]) => `${name};dur=${Math.round(ms * 10) / 10}`)
    .join(", ");
}
