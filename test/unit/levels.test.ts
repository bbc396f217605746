import { describe, expect, it } from "vitest";
import { priceLadder } from "../../src/clients/resolver/ladder";
import { fixedRatePricer, type Pricer, parseDecimal } from "../../src/clients/resolver/pricing";
import { bestLadder, bestOutput } from "../../src/levels/best-price";
import {
  honestLevels,
  LEVELS_WINDOW_MS,
  LevelsHonesty,
  levelsStanding,
  percentile,
  sloppyLevels,
} from "../../src/levels/honesty";
import { checkLadder, outputAt, slippageBps } from "../../src/levels/ladder";
import { LadderBook } from "../../src/levels/ladder-book";
import type { LevelsFrame } from "../../src/protocol/frames";

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
    ["a better rate for more", rungs([1000, 633], [10_000, 6_331]), "levels_rate_improves"],
    ["a zero output", rungs([1000, 0]), "levels_zero_amount"],
    ["a zero sell amount", rungs([0, 10]), "levels_zero_amount"],
  ])("refuses %s", (_what, levels, code) => {
    expect(checkLadder(levels)).toMatchObject({ ok: false, code });
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
});

describe("slippageBps and the honesty rules", () => {
  it("measures a bid 1 % under its ladder as 100 bps, and a better one as negative", () => {
    expect(slippageBps(1_000_000n, 990_000n)).toBe(100);
    expect(slippageBps(1_000_000n, 1_000_500n)).toBe(-5);
  });

  it("takes nearest-rank percentiles", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
  });

  it("gives honest_levels at p90 ≤ 5 over 20 samples, and leaves out a p50 above 50 over 20", () => {
    const honest = levelsStanding(Array.from({ length: 20 }, (_, i) => (i < 18 ? 0 : 50)));
    expect(honest).toEqual({ samples: 20, p50SlippageBps: 0, p90SlippageBps: 0 });
    expect(honestLevels(honest)).toBe(true);
    expect(honestLevels(levelsStanding(Array(19).fill(0)))).toBe(false);
    expect(honestLevels(levelsStanding(Array(20).fill(6)))).toBe(false);
    expect(sloppyLevels(levelsStanding(Array(20).fill(51)))).toBe(true);
    expect(sloppyLevels(levelsStanding(Array(19).fill(100)))).toBe(false);
    expect(sloppyLevels(levelsStanding(Array(20).fill(50)))).toBe(false);
  });

  it("leaves a node's ladders out from its 20th sloppy sample in the corridor, and forgets samples past 7 days", () => {
    const honesty = new LevelsHonesty();
    for (let i = 0; i < 19; i++) honesty.add("a", 100, 1_000);
    expect(honesty.excluded("a", 2_000)).toBe(false);
    honesty.add("a", 100, 1_000);
    expect(honesty.excluded("a", 2_000)).toBe(true);
    expect(honesty.excluded("a", 1_000 + 8 * 24 * 3600 * 1000)).toBe(false);
  });
});

describe("LevelsHonesty: the stored samples' verdict", () => {
  it("leaves out whom the stored samples name, read at most every 10 s, and retries a failed read", async () => {
    const reads: number[] = [];
    let answer: () => Promise<string[]> = async () => ["a"];
    const honesty = new LevelsHonesty((since) => {
      reads.push(since);
      return answer();
    });
    expect(honesty.excluded("a", 0)).toBe(false);
    await honesty.refresh(LEVELS_WINDOW_MS);
    expect(reads).toEqual([0]);
    expect(honesty.excluded("a", LEVELS_WINDOW_MS)).toBe(true);
    expect(honesty.excluded("b", LEVELS_WINDOW_MS)).toBe(false);
    expect(honesty.refresh(LEVELS_WINDOW_MS + 9_999)).toBeNull();
    answer = async () => {
      throw new Error("D1 is down");
    };
    await honesty.refresh(LEVELS_WINDOW_MS + 10_000);
    // The last verdict stands, and the next call reads again.
    expect(honesty.excluded("a", LEVELS_WINDOW_MS + 10_001)).toBe(true);
    answer = async () => [];
    await honesty.refresh(LEVELS_WINDOW_MS + 10_001);
    expect(reads).toHaveLength(3);
    expect(honesty.excluded("a", LEVELS_WINDOW_MS + 10_002)).toBe(false);
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
