import { describe, expect, it } from "vitest";
import { NO_TOTALS } from "../../src/db/resolver-days";
import { auctionDayCounts, replyBucket, replyLatency, windowDays } from "../../src/resolvers/reliability";

describe('reply latency by bucket (docs/reliability.md, "A resolver\'s record")', () => {
  it("puts a reply in the first bucket whose bound it is within, and none past the last", () => {
    expect([0, 25, 26, 100, 101, 800, 801].map(replyBucket)).toEqual([
      "replies25",
      "replies25",
      "replies50",
      "replies100",
      "replies200",
      "replies800",
      null,
    ]);
  });

  it("counts an auction's reply in its bucket, and nothing for a resolver that did not reply", () => {
    const counts = auctionDayCounts({
      asked: ["0xa", "0xb"],
      answered: new Set(["0xa"]),
      winner: null,
      replyMs: new Map([["0xa", 150]]),
    });
    expect(counts.get("0xa")).toMatchObject({ replies: 1, replies200: 1 });
    expect(counts.get("0xb")).not.toHaveProperty("replies200");
  });

  it("gives p50 and p99 as the bounds of the buckets they fall in, the window past the last", () => {
    expect(replyLatency(NO_TOTALS, 1_500)).toBeNull();
    const totals = { ...NO_TOTALS, replies: 100, replies25: 60, replies200: 38 };
    expect(replyLatency(totals, 1_500)).toEqual({ p50Ms: 25, p99Ms: 1_500 });
    expect(replyLatency({ ...totals, replies800: 2 }, 1_500)).toEqual({ p50Ms: 25, p99Ms: 800 });
  });

  it("names the window's 7 UTC days, oldest first, ending today", () => {
    const days = windowDays(Date.UTC(2026, 10, 25, 1));
    expect(days).toEqual([
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
    ]);
  });
});
