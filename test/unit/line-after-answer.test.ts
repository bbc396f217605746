import type { Context } from "hono";
import { describe, expect, it, vi } from "vitest";
import { lineAfterAnswer } from "../../src/http/answer";
import { LINE_AFTER_ANSWER_MS } from "../../src/log";

/** A request's context with an ExecutionContext that keeps what it is handed, or (null) without one. */
function contextWith(waiting: Promise<unknown>[] | null): Context {
  const ctx = waiting === null ? null : { waitUntil: (p: Promise<unknown>) => waiting.push(p) };
  return {
    get executionCtx() {
      if (!ctx) throw new Error("This context has no ExecutionContext");
      return ctx;
    },
  } as unknown as Context;
}

describe("a request's line", () => {
  it("is written LINE_AFTER_ANSWER_MS after the answer is handed over, as work the request waits for", async () => {
    vi.useFakeTimers();
    try {
      const waiting: Promise<unknown>[] = [];
      const write = vi.fn();
      lineAfterAnswer(contextWith(waiting), write);
      expect(waiting).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(LINE_AFTER_ANSWER_MS - 1);
      expect(write).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all(waiting);
      expect(write).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it("is written at once by a request made without an ExecutionContext", () => {
    const write = vi.fn();
    lineAfterAnswer(contextWith(null), write);
    expect(write).toHaveBeenCalledOnce();
  });
});
