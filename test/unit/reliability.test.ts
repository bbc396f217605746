import { describe, expect, it } from "vitest";
import { NO_TOTALS, type Totals } from "../../src/db/resolver-days";
import {
  auctionDayCounts,
  badgesOf,
  detailOf,
  reliabilityFields,
  reliabilityOf,
  windowStart,
} from "../../src/resolvers/reliability";

const MINUTE = 60_000;
const NOW = Date.parse("2026-03-10T12:00:00.000Z");
const totals = (over: Partial<Totals>): Totals => ({ ...NO_TOTALS, ...over });
/** Every measure at its full rate with `n` samples. */
const perfect = (n: number) =>
  totals({ asked: n, answered: n, submitted: n, settled: n, connectedMs: n * MINUTE, freshMs: n * MINUTE });
const badgeFacts = { totals: NO_TOTALS, reliability: null, solana: false, firstSeen: null };

describe("windowStart", () => {
  it("is the day six days before today: seven UTC days with today", () => {
    expect(windowStart(NOW)).toBe("2026-03-04");
    expect(windowStart(Date.parse("2026-03-10T00:00:00.000Z"))).toBe("2026-03-04");
    expect(windowStart(Date.parse("2026-03-01T23:59:59.999Z"))).toBe("2026-02-23");
  });
});

describe("auctionDayCounts", () => {
  it("counts each asked resolver once: answered, won, replies and fast replies by latency", () => {
    const counts = auctionDayCounts({
      asked: ["0xA", "0xB", "0xC", "0xD"],
      answered: new Set(["0xa", "0xb", "0xc"]),
      winner: "0xB",
      replyMs: new Map([
        ["0xa", 100],
        ["0xb", 101],
        ["0xc", 3],
      ]),
    });
    expect(Object.fromEntries(counts)).toEqual({
      "0xa": { asked: 1, answered: 1, won: 0, replies: 1, fastReplies: 1, replies100: 1 },
      "0xb": { asked: 1, answered: 1, won: 1, replies: 1, fastReplies: 0, replies200: 1 },
      "0xc": { asked: 1, answered: 1, won: 0, replies: 1, fastReplies: 1, replies25: 1 },
      "0xd": { asked: 1, answered: 0, won: 0, replies: 0, fastReplies: 0 },
    });
  });

  it("counts a win for every leg's resolver of a fill of several makers", () => {
    const counts = auctionDayCounts({
      asked: ["0xA", "0xB", "0xC"],
      answered: new Set(["0xa", "0xb", "0xc"]),
      winner: "0xB",
      legs: ["0xB", "0xC"],
      replyMs: new Map(),
    });
    expect([...counts].map(([a, c]) => [a, c.won])).toEqual([
      ["0xa", 0],
      ["0xb", 1],
      ["0xc", 1],
    ]);
  });
});

describe("detailOf", () => {
  it("gives each measure's rate and samples; uptime's samples are whole connected minutes", () => {
    const detail = detailOf(
      totals({ asked: 40, answered: 30, settled: 9, failed: 1, connectedMs: 90 * MINUTE + 59_999, freshMs: 0 }),
    );
    expect(detail).toEqual({
      response: { rate: 0.75, samples: 40 },
      fill: { rate: 0.9, samples: 10 },
      uptime: { rate: 0, samples: 90 },
    });
    expect(detailOf(totals({ connectedMs: 10 * MINUTE, freshMs: 9 * MINUTE }))?.uptime).toEqual({
      rate: 0.9,
      samples: 10,
    });
  });

  it("gives a null rate to a measure without samples, and no detail without any sample", () => {
    expect(detailOf(totals({ asked: 2, answered: 1 }))).toEqual({
      response: { rate: 0.5, samples: 2 },
      fill: { rate: null, samples: 0 },
      uptime: { rate: null, samples: 0 },
    });
    expect(detailOf(totals({ connectedMs: MINUTE - 1, freshMs: MINUTE - 1, won: 3 }))).toBeNull();
    expect(detailOf(NO_TOTALS)).toBeNull();
  });

  it("counts a fill among its samples only when it settled or failed through the resolver's own fault", () => {
    // Five broadcast, three settled, one failed for the resolver's reason, one for the taker's: 3 of 4.
    expect(detailOf(totals({ submitted: 5, settled: 3, failed: 1 }))?.fill).toEqual({ rate: 0.75, samples: 4 });
    // However many fills the takers or the relay failed, a resolver that never failed one has a fill rate of 1.
    expect(detailOf(totals({ submitted: 40, settled: 1 }))?.fill).toEqual({ rate: 1, samples: 1 });
    expect(detailOf(totals({ asked: 1, submitted: 40 }))?.fill).toEqual({ rate: null, samples: 0 });
  });
});

describe("reliabilityOf", () => {
  it("is the product of the three rates once each has 20 samples", () => {
    const t = totals({
      asked: 20,
      answered: 19,
      settled: 18,
      failed: 2,
      connectedMs: 20 * MINUTE,
      freshMs: 19 * MINUTE,
    });
    expect(reliabilityOf(detailOf(t))).toBeCloseTo(0.95 * 0.9 * 0.95, 12);
    expect(reliabilityOf(detailOf(perfect(20)))).toBe(1);
  });

  it("is null while any measure has fewer than 20 samples", () => {
    expect(reliabilityOf(detailOf(totals({ ...perfect(20), asked: 19, answered: 19 })))).toBeNull();
    expect(reliabilityOf(detailOf(totals({ ...perfect(20), submitted: 19, settled: 19 })))).toBeNull();
    expect(reliabilityOf(detailOf(totals({ ...perfect(20), connectedMs: 20 * MINUTE - 1 })))).toBeNull();
    expect(reliabilityOf(null)).toBeNull();
  });

  it("is 0 when a measure with enough samples is 0", () => {
    expect(reliabilityOf(detailOf(totals({ ...perfect(30), settled: 0, failed: 30 })))).toBe(0);
  });
});

describe("badgesOf", () => {
  it("fast: more than half of at least 20 replies within 100 ms", () => {
    const fast = (replies: number, fastReplies: number) =>
      badgesOf({ ...badgeFacts, totals: { replies, fastReplies } }, NOW).includes("fast");
    expect(fast(20, 11)).toBe(true);
    expect(fast(20, 10)).toBe(false);
    expect(fast(21, 11)).toBe(true);
    expect(fast(19, 19)).toBe(false);
  });

  it("reliable: reliability of at least 0.95", () => {
    const reliable = (reliability: number | null) => badgesOf({ ...badgeFacts, reliability }, NOW).includes("reliable");
    expect(reliable(0.95)).toBe(true);
    expect(reliable(0.9499999)).toBe(false);
    expect(reliable(null)).toBe(false);
  });

  it("solana: proved a Solana key", () => {
    expect(badgesOf({ ...badgeFacts, solana: true }, NOW)).toEqual(["solana"]);
    expect(badgesOf(badgeFacts, NOW)).toEqual([]);
  });

  it("new: first seen less than 7 days ago", () => {
    const seen = (msAgo: number) =>
      badgesOf({ ...badgeFacts, firstSeen: new Date(NOW - msAgo).toISOString() }, NOW).includes("new");
    expect(seen(7 * 86_400_000 - 1)).toBe(true);
    expect(seen(7 * 86_400_000)).toBe(false);
    expect(badgesOf(badgeFacts, NOW)).toEqual([]);
  });

  it("lists the badges in one order", () => {
    const all = { totals: { replies: 20, fastReplies: 20 }, reliability: 1, solana: true, firstSeen: "2026-03-09" };
    expect(badgesOf(all, NOW)).toEqual(["fast", "reliable", "solana", "new"]);
  });
});

describe("reliabilityFields", () => {
  it("derives reliability and badges from the same totals", () => {
    const fields = reliabilityFields(
      totals({ ...perfect(25), replies: 25, fastReplies: 20 }),
      { solana: false, firstSeen: null },
      NOW,
    );
    expect(fields).toEqual({
      reliability: 1,
      reliabilityDetail: {
        response: { rate: 1, samples: 25 },
        fill: { rate: 1, samples: 25 },
        uptime: { rate: 1, samples: 25 },
      },
      badges: ["fast", "reliable"],
    });
  });
});
