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
    await behindAnswer(
      c,
      new Promise<void>((resolve) =>
        setTimeout(() => {
          done = true;
          resolve();
        }, 5),
      ),
    );
    expect(done).toBe(true);
  });
});
