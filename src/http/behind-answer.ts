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
