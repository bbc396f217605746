import { describe, expect, it } from "vitest";
import { priceLadder } from "../../src/clients/resolver/ladder";
import { fixedRatePricer, type Pricer, parseDecimal } from "../../src/clients/resolver/pricing";
import { bestLadder, bestOutput } from "../../src/levels/best-price";
import {
  bucketOf,
  honestLevels,
  LevelsHonesty,
  levelsSinceDay,
  levelsStanding,
  percentile,
  SLIPPAGE_BUCKETS_BPS,
  type SlippageCounts,
  sloppyLevels,
} from "../../src/levels/honesty";
import { checkLadder, outputAt, slippageBps, WORST_SLIPPAGE_BPS, withinBand } from "../../src/levels/ladder";
import { LadderBook } from "../../src/levels/ladder-book";
import type { LevelsFrame } from "../../src/protocol/node-frames";

const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const NODE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const rungs = (...pairs: [number, number][]) =>
  pairs.map(([s, o]) => ({ sellAmount: String(s), outputAmount: String(o) }));
const frame = (levels = rungs([1000, 633], [10_000, 6_320]), over: Partial<LevelsFrame> = {}): LevelsFrame => ({
  type: "levels",
  chainId: 31337,
  sellToken: CNGN,
  buyToken: USDC,
  levels,
  ...over,
});
/** Single samples as counts per bucket, as the day histograms hold them. */
const counted = (bps: readonly number[]): SlippageCounts => {
  const counts = new Map<number, number>();
  for (const b of bps) counts.set(bucketOf(b), (counts.get(bucketOf(b)) ?? 0) + 1);
  return [...counts].map(([bucketBps, samples]) => ({ bucketBps, samples }));
};
const DAY_MS = 24 * 3600 * 1000;

const book = () =>
  new LadderBook({
    chainId: 31337,
    tokens: [CNGN.toLowerCase(), USDC.toLowerCase()],
    sameToken: (a, b) => a.toLowerCase() === b.toLowerCase(),
  });

describe("checkLadder", () => {
  it("takes rungs sorted by sellAmount whose rate never gets better", () => {
    const checked = checkLadder(rungs([1000, 633], [10_000, 6_330], [100_000, 63_000]));
    expect(checked).toEqual({
      ok: true,
      rungs: [
        { sellAmount: 1000n, outputAmount: 633n },
        { sellAmount: 10_000n, outputAmount: 6_330n },
        { sellAmount: 100_000n, outputAmount: 63_000n },
      ],
    });
  });

  it.each([
    ["unsorted amounts", rungs([10_000, 6_330], [1000, 633]), "levels_unsorted"],
    ["a repeated amount", rungs([1000, 633], [1000, 600]), "levels_unsorted"],
    [
      "a better rate for more by one base unit of the smaller rung",
      rungs([1000, 633], [10_000, 6_340]),
      "levels_rate_improves",
    ],
    ["a zero output", rungs([1000, 0]), "levels_zero_amount"],
    ["a zero sell amount", rungs([0, 10]), "levels_zero_amount"],
  ])("refuses %s", (_what, levels, code) => {
    expect(checkLadder(levels)).toMatchObject({ ok: false, code });
  });

  it("takes a rate better for more by less than one base unit of the smaller rung: a flat rate rounded per rung", () => {
    // 6,339 for 10,000 is under what 634 for 1,000 would pay: within the smaller rung's rounding.
    expect(checkLadder(rungs([1000, 633], [10_000, 6_339]))).toMatchObject({ ok: true });
    // 0.00063298 floored at 20 and 50 cNGN: 12,659 and 31,649, the larger a hair better.
    expect(checkLadder(rungs([20_000_000, 12_659], [50_000_000, 31_649]))).toMatchObject({ ok: true });
    // One base unit more on the smaller rung is the limit, not within it.
    expect(checkLadder(rungs([1000, 633], [2000, 1268]))).toMatchObject({ ok: false, code: "levels_rate_improves" });
    expect(checkLadder(rungs([1000, 633], [2000, 1267]))).toMatchObject({ ok: true });
  });
});

describe("withinBand", () => {
  const ladder = [
    { sellAmount: 1000n, outputAmount: 600n },
    { sellAmount: 3000n, outputAmount: 1700n },
  ];
  const bounds = (min: bigint, max: bigint) => (amount: bigint) => ({
    min: (amount * min) / 1000n,
    max: (amount * max) / 1000n,
  });
  it("holds when every rung pays within the band guard at its amount, or no band steers", () => {
    expect(withinBand(ladder, bounds(560n, 610n))).toBe(true);
    expect(withinBand(ladder, () => null)).toBe(true);
  });
  it("fails for a rung too good or too bad to be true", () => {
    expect(withinBand(ladder, bounds(560n, 590n))).toBe(false);
    expect(withinBand(ladder, bounds(570n, 610n))).toBe(false);
  });
});

describe("outputAt", () => {
  const ladder = [
    { sellAmount: 1000n, outputAmount: 600n },
    { sellAmount: 3000n, outputAmount: 1700n },
  ];
  it("is linear between rungs, rounding down, and from zero below the first", () => {
    expect(outputAt(ladder, 1000n)).toBe(600n);
    expect(outputAt(ladder, 2000n)).toBe(1150n);
    expect(outputAt(ladder, 2001n)).toBe(1150n);
    expect(outputAt(ladder, 500n)).toBe(300n);
    expect(outputAt(ladder, 3000n)).toBe(1700n);
  });

  it("never goes past the last rung, nor prices nothing", () => {
    expect(outputAt(ladder, 3001n)).toBeNull();
    expect(outputAt(ladder, 0n)).toBeNull();
  });

  it("covers no amount whose value rounds to nothing", () => {
    expect(outputAt(ladder, 1n)).toBeNull();
    expect(outputAt(ladder, 2n)).toBe(1n);
    expect(outputAt([{ sellAmount: 10n ** 18n, outputAmount: 1n }], 10n ** 18n - 1n)).toBeNull();
  });
});

describe("slippageBps and the honesty rules", () => {
  it("measures a bid 1 % under its ladder as 100 bps, a better one as negative, and nothing as the worst case", () => {
    expect(slippageBps(1_000_000n, 990_000n)).toBe(100);
    expect(slippageBps(1_000_000n, 1_000_500n)).toBe(-5);
    expect(slippageBps(1_000_000n, 0n)).toBe(WORST_SLIPPAGE_BPS);
  });

  it("measures nothing against a value of nothing, and never throws", () => {
    expect(slippageBps(0n, 1_000n)).toBeNull();
  });

  it("buckets slippage by upper bounds that hold both thresholds, the worst case last", () => {
    expect([-300, 0, 1, 3, 5, 6, 50, 51, 10_000].map(bucketOf)).toEqual([0, 0, 1, 5, 5, 10, 50, 100, 10_000]);
    expect(SLIPPAGE_BUCKETS_BPS).toContain(5);
    expect(SLIPPAGE_BUCKETS_BPS).toContain(50);
    expect(SLIPPAGE_BUCKETS_BPS.at(-1)).toBe(WORST_SLIPPAGE_BPS);
  });

  it("takes nearest-rank percentiles over the counts, as their buckets' bounds", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile(counted([5, 1, 3, 2, 4]), 50)).toBe(5);
    expect(percentile(counted([0, 0, 0, 0, 0, 0, 0, 0, 0, 100]), 90)).toBe(0);
    expect(percentile(counted([0, 0, 0, 0, 0, 0, 0, 0, 100, 100]), 90)).toBe(100);
  });

  it("gives honest_levels at p90 ≤ 5 over 20 samples, and leaves out a p50 above 50 over 20", () => {
    const honest = levelsStanding(counted(Array.from({ length: 20 }, (_, i) => (i < 18 ? 0 : 50))));
    expect(honest).toEqual({ samples: 20, p50SlippageBps: 0, p90SlippageBps: 0 });
    expect(honestLevels(honest)).toBe(true);
    expect(honestLevels(levelsStanding(counted(Array(20).fill(5))))).toBe(true);
    expect(honestLevels(levelsStanding(counted(Array(19).fill(0))))).toBe(false);
    expect(honestLevels(levelsStanding(counted(Array(20).fill(6))))).toBe(false);
    expect(sloppyLevels(levelsStanding(counted(Array(20).fill(51))))).toBe(true);
    expect(sloppyLevels(levelsStanding(counted(Array(19).fill(100))))).toBe(false);
    expect(sloppyLevels(levelsStanding(counted(Array(20).fill(50))))).toBe(false);
    // Half the samples worst-case and half honest: the median is the honest half's (nearest rank).
    expect(sloppyLevels(levelsStanding(counted([...Array(10).fill(0), ...Array(10).fill(10_000)])))).toBe(false);
    expect(sloppyLevels(levelsStanding(counted([...Array(10).fill(0), ...Array(11).fill(10_000)])))).toBe(true);
  });

  it("leaves a node's ladders out from its 20th sloppy sample in the corridor, and forgets days past the window", () => {
    const honesty = new LevelsHonesty();
    for (let i = 0; i < 19; i++) honesty.add("a", 100, 1_000);
    expect(honesty.excluded("a", 2_000)).toBe(false);
    honesty.add("a", 100, 1_000);
    expect(honesty.excluded("a", 2_000)).toBe(true);
    // The window is today and the 6 UTC days before it.
    expect(honesty.excluded("a", 6 * DAY_MS)).toBe(true);
    expect(honesty.excluded("a", 7 * DAY_MS)).toBe(false);
  });

  it("counts in memory a bounded histogram per node, whatever the number of samples", () => {
    const honesty = new LevelsHonesty();
    for (let i = 0; i < 100_000; i++) honesty.add("a", i % 200, 1_000 + (i % 3) * DAY_MS);
    expect(honesty.standing("a", 3 * DAY_MS)).toMatchObject({ samples: 100_000, p50SlippageBps: 100 });
    // Days before the window are dropped as the stored verdict is read again.
    void honesty.refresh(10 * DAY_MS);
    expect(honesty.standing("a", 10 * DAY_MS).samples).toBe(0);
  });
});

describe("levelsSinceDay", () => {
  it("is the first of the window's 7 UTC days, today last", () => {
    expect(levelsSinceDay(Date.parse("2026-11-28T17:00:00Z"))).toBe("2026-11-22");
    expect(levelsSinceDay(Date.parse("2026-11-28T00:00:00Z"))).toBe("2026-11-22");
  });
});

describe("LevelsHonesty: the stored samples' verdict", () => {
  it("leaves out whom the stored samples name, read at most every 10 s, and retries a failed read", async () => {
    const reads: string[] = [];
    let answer: () => Promise<string[]> = async () => ["a"];
    const honesty = new LevelsHonesty((sinceDay) => {
      reads.push(sinceDay);
      return answer();
    });
    const start = 7 * DAY_MS;
    expect(honesty.excluded("a", 0)).toBe(false);
    await honesty.refresh(start);
    expect(reads).toEqual(["1970-01-02"]);
    expect(honesty.excluded("a", start)).toBe(true);
    expect(honesty.excluded("b", start)).toBe(false);
    expect(honesty.refresh(start + 9_999)).toBeNull();
    answer = async () => {
      throw new Error("D1 is down");
    };
    await honesty.refresh(start + 10_000);
    // The last verdict stands, and the next call reads again.
    expect(honesty.excluded("a", start + 10_001)).toBe(true);
    answer = async () => [];
    await honesty.refresh(start + 10_001);
    expect(reads).toHaveLength(3);
    expect(honesty.excluded("a", start + 10_002)).toBe(false);
  });
});

describe("LadderBook", () => {
  it("replaces a node's ladder per direction and lets it lapse after its ttlMs", () => {
    const b = book();
    expect(b.receive(NODE, frame(), 0)).toBeNull();
    expect(b.receive(NODE, frame(rungs([1000, 500]), { ttlMs: 2_000 }), 10)).toBeNull();
    expect(b.outputAt(NODE, CNGN, USDC, 1000n, 20)).toBe(500n);
    expect(b.outputAt(NODE, USDC, CNGN, 1000n, 20)).toBeNull();
    expect(b.fresh(CNGN, USDC, 2_009)).toHaveLength(1);
    expect(b.fresh(CNGN, USDC, 2_010)).toHaveLength(0);
    expect(b.outputAt(NODE, CNGN, USDC, 1000n, 2_010)).toBeNull();
  });

  it("lapses a ladder without ttlMs after 10 s", () => {
    const b = book();
    b.receive(NODE, frame(), 0);
    expect(b.fresh(CNGN, USDC, 9_999)).toHaveLength(1);
    expect(b.fresh(CNGN, USDC, 10_000)).toHaveLength(0);
  });

  it("refuses a fifth frame in a second per direction, and stores nothing of it", () => {
    const b = book();
    for (let i = 0; i < 4; i++) expect(b.receive(NODE, frame(), 100 + i)).toBeNull();
    expect(b.receive(NODE, frame(rungs([1000, 1])), 500)).toMatchObject({ code: "levels_rate_limited" });
    expect(b.outputAt(NODE, CNGN, USDC, 1000n, 500)).toBe(633n);
    // The other direction counts apart, and the next second starts afresh.
    expect(b.receive(NODE, frame(rungs([1000, 1_500_000]), { sellToken: USDC, buyToken: CNGN }), 500)).toBeNull();
    expect(b.receive(NODE, frame(rungs([1000, 1])), 1_100)).toBeNull();
  });

  it("refuses a bad ladder or another corridor's, keeping the last good ladder", () => {
    const b = book();
    b.receive(NODE, frame(), 0);
    expect(b.receive(NODE, frame(rungs([1000, 633], [2000, 1300])), 1)).toMatchObject({
      code: "levels_rate_improves",
    });
    expect(b.receive(NODE, frame(undefined, { chainId: 1 }), 2)).toMatchObject({ code: "levels_wrong_corridor" });
    expect(b.receive(NODE, frame(undefined, { buyToken: CNGN }), 3)).toMatchObject({ code: "levels_wrong_corridor" });
    expect(b.outputAt(NODE, CNGN, USDC, 10_000n, 4)).toBe(6_320n);
  });

  it("forgets a node's ladders when it leaves", () => {
    const b = book();
    b.receive(NODE, frame(), 0);
    b.forget(NODE.toLowerCase());
    expect(b.fresh(CNGN, USDC, 1)).toEqual([]);
  });
});

describe("best prices over several ladders", () => {
  const a = {
    node: "a",
    at: 1,
    rungs: [
      { sellAmount: 1000n, outputAmount: 600n },
      { sellAmount: 2000n, outputAmount: 1100n },
    ],
  };
  const b = { node: "b", at: 2, rungs: [{ sellAmount: 1500n, outputAmount: 1000n }] };
  it("answers the best output among the ladders that cover the amount", () => {
    expect(bestOutput([a, b], 1000n)).toEqual({ outputAmount: 666n, covering: 2, at: 2 });
    expect(bestOutput([a, b], 2000n)).toEqual({ outputAmount: 1100n, covering: 1, at: 1 });
    expect(bestOutput([a, b], 2001n)).toBeNull();
  });

  it("draws the best ladder through every rung amount", () => {
    expect(bestLadder([a, b])).toEqual([
      { sellAmount: 1000n, outputAmount: 666n },
      { sellAmount: 1500n, outputAmount: 1000n },
      { sellAmount: 2000n, outputAmount: 1100n },
    ]);
  });
});

describe("the reference resolver's ladder", () => {
  const cngn = { symbol: "cNGN", address: CNGN, decimals: 6 };
  const usdc = { symbol: "USDC", address: USDC, decimals: 6 };
  const ladderAt = (pricer: Pricer, available: bigint) =>
    priceLadder({ pricer, chainId: 31337, sellToken: cngn, buyToken: usdc, band: null, available });

  it("prices 1-2-5 rungs from its pricer, from 0.01 USDC up to what it can deliver", async () => {
    const ladder = await ladderAt(fixedRatePricer({ rate: parseDecimal("0.000633"), sellSymbol: "cNGN" }), 70_000_000n);
    // 10 cNGN pay 6,330 base units, under the least rung; 20 cNGN are the first rung.
    expect(ladder?.levels.slice(0, 2)).toEqual(rungs([20_000_000, 12_660], [50_000_000, 31_650]));
    // 100,000 cNGN is 63.3 USDC, within 70; 200,000 is not.
    expect(ladder?.levels.at(-1)).toEqual({ sellAmount: "100000000000", outputAmount: "63300000" });
    expect(checkLadder(ladder?.levels ?? [])).toMatchObject({ ok: true });
    expect(ladder).toMatchObject({ type: "levels", sellToken: CNGN, buyToken: USDC, ttlMs: 10_000 });
  });

  it("cuts a rung to the rate of the one before it when rounding would make more sell at a better rate", async () => {
    // 0.00063298 USDC per cNGN: 20 cNGN pay 12,659 (of 12,659.6), 50 would pay 31,649 exactly, a better rate.
    const ladder = await ladderAt(
      fixedRatePricer({ rate: parseDecimal("0.00063298"), sellSymbol: "cNGN" }),
      10n ** 12n,
    );
    expect(ladder?.levels.slice(0, 2)).toEqual(rungs([20_000_000, 12_659], [50_000_000, 31_647]));
    expect(checkLadder(ladder?.levels ?? [])).toMatchObject({ ok: true });
  });
});
