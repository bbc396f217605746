import { afterEach, describe, expect, it, vi } from "vitest";
import { currentRequestId, log, logLine, logRecord, useLogFormat, withRequestId } from "../../src/log";

afterEach(() => {
  vi.restoreAllMocks();
  useLogFormat(undefined);
});

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

describe("one short line per log line (LOG_FORMAT=line)", () => {
  it("writes a request as method, path, status and ms, with its request id", () => {
    expect(
      logLine({
        level: "info",
        event: "request",
        requestId: "r-1",
        method: "POST",
        path: "/v1/quotes",
        status: 200,
        ms: 48,
      }),
    ).toBe("POST /v1/quotes 200 48ms (r-1)");
  });

  it("writes any other event by name with its fields, saying so first when it is a warning or an error", () => {
    expect(logLine({ level: "info", event: "auction", corridor: "k", replies: { valid: 2 }, auctionMs: 21 })).toBe(
      'auction corridor=k replies={"valid":2} auctionMs=21',
    );
    expect(logLine({ level: "error", event: "job_failed", requestId: "r-2", job: "limits" })).toBe(
      "ERROR job_failed job=limits (r-2)",
    );
  });

  it("is what the sinks get once the format is line, and the objects again otherwise", () => {
    const lines: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line) => lines.push(line));
    useLogFormat("line");
    log.info("ready", { port: 8787 });
    useLogFormat("json");
    log.info("ready", { port: 8787 });
    expect(lines).toEqual(["ready port=8787", { level: "info", event: "ready", port: 8787 }]);
  });
});
