import type { Context } from "hono";

/**
 * Hands `work` to the request's ExecutionContext to finish after the answer (a Worker deployed or under
 * `wrangler dev` always has one); a request made without one (the app called directly, as in tests)
 * waits for it instead.
 */
export async function behindAnswer(c: Context, work: Promise<unknown>): Promise<void> {
  let ctx: { waitUntil(p: Promise<unknown>): void } | null = null;
  try {
    ctx = c.executionCtx;
  } catch {
    // Hono throws when the request came without an ExecutionContext.
  }
  if (ctx) ctx.waitUntil(work);
  else await work;
}
