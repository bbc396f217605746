import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { behindAnswer } from "../../src/http/answer";

describe("behindAnswer", () => {
  it("hands the work to the request's ExecutionContext without waiting for it", async () => {
    const handed: Promise<unknown>[] = [];
    const never = new Promise<void>(() => {});
    const c = { executionCtx: { waitUntil: (p: Promise<unknown>) => handed.push(p) } } as unknown as Context;
    await behindAnswer(c, never);
    expect(handed).toEqual([never]);
  });

  it("waits for the work when the request has no ExecutionContext", async () => {
    let done = false;
    const c = {
      get executionCtx(): never {
        throw new Error("This context has no ExecutionContext");
      },
    } as unknown as Context;
    // Work that settles a few turns of the microtask queue later: a caller that did not wait would see it undone.
    const work = (async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
      done = true;
    })();
    await behindAnswer(c, work);
    expect(done).toBe(true);
  });
});
