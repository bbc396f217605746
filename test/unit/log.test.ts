import { afterEach, describe, expect, it, vi } from "vitest";
import { currentRequestId, log, logRecord, withRequestId } from "../../src/log";

afterEach(() => vi.restoreAllMocks());

describe("log lines", () => {
  it("put level and event first, then the request id, then the fields", () => {
    expect(Object.keys(logRecord("info", "quote", { corridor: "k", ms: 3 }, "r1"))).toEqual([
      "level",
      "event",
      "requestId",
      "corridor",
      "ms",
    ]);
    expect(logRecord("warn", "x", {})).toEqual({ level: "warn", event: "x" });
  });

  it("carry the request id in scope across awaits, and only inside it", async () => {
    const lines: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line) => lines.push(line));
    vi.spyOn(console, "error").mockImplementation((line) => lines.push(line));
    await withRequestId("req-1", async () => {
      log.info("before");
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe("req-1");
      log.error("after", { code: "x" });
    });
    log.info("outside");
    expect(lines).toEqual([
      { level: "info", event: "before", requestId: "req-1" },
      { level: "error", event: "after", requestId: "req-1", code: "x" },
      { level: "info", event: "outside" },
    ]);
  });

  it("keep two requests apart when they interleave", async () => {
    const seen: string[] = [];
    const run = (id: string, wait: number) =>
      withRequestId(id, async () => {
        await new Promise((resolve) => setTimeout(resolve, wait));
        seen.push(`${id}:${currentRequestId()}`);
      });
    await Promise.all([run("a", 5), run("b", 1)]);
    expect(seen).toEqual(["b:b", "a:a"]);
  });

  it("run without a scope when there is no request id", () => {
    expect(withRequestId(undefined, () => currentRequestId())).toBeUndefined();
  });
});
