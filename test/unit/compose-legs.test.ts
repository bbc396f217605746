import { describe, expect, it } from "vitest";
import { quoteAmounts } from "../../src/auction/amounts";
import {
  bestCover,
  type Candidate,
  type Choice,
  candidatesOf,
  compareChoices,
  composeLegs,
  type LegBid,
  type LegTerms,
} from "../../src/auction/compose-legs";
import { gasFeeOfLegs, legGasFee } from "../../src/auction/leg-gas-fee";

/**
 * How legs are chosen (docs/legs.md): the set of whole bids and parts that pays the taker most, exactly
 * covering the asked amount, by an exact search that the last test checks against every subset.
 */

const ASKED = 100n;
const terms = (over: Partial<LegTerms> = {}): LegTerms => ({
  sellAmount: ASKED,
  minLegSellAmount: 10n,
  maxLegs: 4,
  fee: { bps: 0, side: "buy" },
  gas: { perSwap: 0n, perLeg: 0n },
  ...over,
});
const whole = (resolver: string, outputAmount: bigint): LegBid => ({ resolver, outputAmount });
const part = (resolver: string, sellAmount: bigint, outputAmount: bigint): LegBid => ({
  resolver,
  sellAmount,
  outputAmount,
});
const chosen = (bids: LegBid[], t: LegTerms = terms()) =>
  composeLegs(bids, t)?.legs.map((l) => `${l.bid.resolver}:${l.sellAmount}`) ?? null;

describe("the gas fee by legs", () => {
  it("charges one leg exactly today's priced fee, each further leg its share rounded up", () => {
    const model = legGasFee(50_001n, { swap: 150_000n, leg: 45_000n });
    expect(gasFeeOfLegs(model, 1)).toBe(50_001n);
    // 50,001 × 45,000 / 195,000 = 11,538.69…, rounded up.
    expect(model).toEqual({ perSwap: 38_462n, perLeg: 11_539n });
    expect(gasFeeOfLegs(model, 4)).toBe(38_462n + 4n * 11_539n);
    expect(legGasFee(0n, { swap: 1n, leg: 1n })).toEqual({ perSwap: 0n, perLeg: 0n });
    expect(() => legGasFee(1n, { swap: 0n, leg: 0n })).toThrow(RangeError);
  });
});

describe("composing a fill from bids", () => {
  it("the usual case: one whole bid, the best, received as one fill's quote amounts say", () => {
    const fee = { token: "0xBUY", bps: 10, side: "buy" as const };
    const t = terms({ sellAmount: 1_580_000_000n, fee, gas: legGasFee(50_000n, { swap: 3n, leg: 1n }) });
    const bids = [whole("a", 1_000_140n), whole("b", 999_000n)];
    const fill = composeLegs(bids, t);
    const today = quoteAmounts({
      sellAmount: t.sellAmount,
      outputAmount: 1_000_140n,
      fee,
      gas: { token: "0xBUY", amount: 50_000n, side: "buy" },
    });
    expect(fill?.legs.map((l) => l.bid.resolver)).toEqual(["a"]);
    expect(fill?.legs[0]?.sellAmount).toBe(t.sellAmount);
    expect(fill?.received).toBe(today?.received);
    expect(fill?.fee).toBe(today?.fee);
    expect(fill?.gasFee).toBe(50_000n);
  });

  it("finds the best cover where taking the best rate first does not", () => {
    const bids = [
      part("a", 60n, 6_100n), // the best rate: 101.67 a unit
      part("b", 50n, 5_050n),
      part("d", 50n, 5_040n),
      part("c", 40n, 3_900n),
      whole("e", 10_050n),
    ];
    // Best rate first: a (60), then the only part that still fits, c (40): 10,000, less than e alone.
    expect(greedy(bids.filter((b) => b.sellAmount !== undefined))).toEqual({ resolvers: ["a", "c"], output: 10_000n });
    expect(chosen(bids)).toEqual(["b:50", "d:50"]);
    expect(composeLegs(bids, terms())?.received).toBe(10_090n);
  });

  it("covers exactly the asked amount: never more, never less", () => {
    const short = [part("a", 60n, 7_000n), part("b", 30n, 4_000n)];
    const over = [part("a", 60n, 7_000n), part("b", 50n, 6_000n)];
    expect(chosen(short)).toBeNull();
    expect(chosen(over)).toBeNull();
    expect(chosen([...over, whole("w", 9_000n)])).toEqual(["w:100"]);
  });

  it("never puts one resolver in two legs", () => {
    const bids = [part("x", 50n, 6_000n), part("x", 50n, 5_900n), part("y", 50n, 5_000n)];
    expect(chosen(bids)).toEqual(["x:50", "y:50"]);
    expect(chosen([part("x", 50n, 6_000n), part("x", 50n, 5_900n)])).toBeNull();
    // One resolver, whatever the case its address is written in.
    expect(chosen([part("0xAbC", 50n, 6_000n), part("0xabc", 50n, 5_900n)])).toBeNull();
  });

  it("uses at most maxLegs legs", () => {
    const quarters = ["a", "b", "c", "d"].map((r) => part(r, 25n, 2_600n));
    const bids = [...quarters, whole("w", 10_000n)];
    expect(chosen(bids, terms({ maxLegs: 4 }))).toEqual(["a:25", "b:25", "c:25", "d:25"]);
    expect(chosen(bids, terms({ maxLegs: 3 }))).toEqual(["w:100"]);
    expect(chosen([...quarters, part("e", 50n, 5_000n)], terms({ maxLegs: 3 }))).toEqual(["a:25", "b:25", "e:50"]);
    expect(chosen(quarters, terms({ maxLegs: 1 }))).toBeNull();
  });

  it("answers none when nothing covers the amount, or what covers it leaves the recipient nothing", () => {
    expect(composeLegs([], terms())).toBeNull();
    expect(chosen([part("a", 40n, 4_000n), part("b", 40n, 4_000n)])).toBeNull();
    expect(chosen([whole("a", 100n)], terms({ gas: { perSwap: 60n, perLeg: 40n } }))).toBeNull();
    expect(composeLegs([whole("a", 101n)], terms({ gas: { perSwap: 60n, perLeg: 40n } }))?.received).toBe(1n);
  });

  it("takes two legs only when they pay more after the gas of the second leg", () => {
    const bids = [part("a", 50n, 5_100n), part("b", 50n, 5_100n), whole("w", 10_150n)];
    // Two legs give 10,200 of output for one more leg's gas: worth it at 49, not at 50 or more.
    const gas = (perLeg: bigint) => terms({ gas: { perSwap: 100n, perLeg } });
    expect(chosen(bids, gas(49n))).toEqual(["a:50", "b:50"]);
    expect(composeLegs(bids, gas(49n))?.received).toBe(10_200n - 100n - 2n * 49n);
    expect(chosen(bids, gas(51n))).toEqual(["w:100"]);
    expect(composeLegs(bids, gas(51n))?.received).toBe(10_150n - 100n - 51n);
  });

  it("breaks ties by fewer legs, then by the rank order", () => {
    const tie = [part("a", 50n, 5_000n), part("b", 50n, 5_000n), whole("w", 10_000n)];
    expect(chosen(tie)).toEqual(["w:100"]);
    expect(chosen([whole("v", 10_000n), whole("w", 10_000n)])).toEqual(["v:100"]);
    expect(chosen([whole("w", 10_000n), whole("v", 10_000n)])).toEqual(["w:100"]);
    // Equal worth and legs: {a, d} holds the better-ranked member (a, first) over {b, c}.
    const pairs = [part("a", 70n, 7_000n), part("b", 60n, 6_000n), part("c", 40n, 4_000n), part("d", 30n, 3_000n)];
    expect(chosen(pairs)).toEqual(["a:70", "d:30"]);
  });

  it("takes the protocol fee from each leg's output on the buy side, and none on the sell side", () => {
    const bids = [part("a", 50n, 5_009n), part("b", 50n, 5_009n)];
    // 10 bps of 5,009 is 5.009, rounded down to 5 per leg: 10 in all, where 10 bps of 10,018 is 10.
    const buy = composeLegs(bids, terms({ fee: { bps: 10, side: "buy" } }));
    expect(buy?.legs.map((l) => l.fee)).toEqual([5n, 5n]);
    expect(buy?.received).toBe(10_018n - 10n);
    expect(composeLegs(bids, terms({ fee: { bps: 10, side: "sell" } }))?.received).toBe(10_018n);
  });

  it("takes no part below minLegSellAmount or above the asked amount; a part of all of it is a whole bid", () => {
    const bids = [part("a", 9n, 1_000n), part("b", 91n, 9_100n), part("c", 101n, 99_999n), part("d", 100n, 9_000n)];
    expect(chosen(bids)).toEqual(["d:100"]);
    expect(chosen(bids, terms({ minLegSellAmount: 9n }))).toEqual(["a:9", "b:91"]);
  });

  it("is exact: the same choice as weighing every subset, over 2,000 random auctions", () => {
    const random = lcg(20261128);
    const byLegs = [0, 0, 0, 0, 0];
    for (let round = 0; round < 2_000; round++) {
      const n = 2 + (random() % 10);
      const bids = Array.from({ length: n }, (): LegBid => {
        const resolver = `r${random() % 8}`;
        // Mostly multiples of 5, so parts often cover the amount together; some of any size.
        const amount = random() % 4 !== 0 ? BigInt(5 * (1 + (random() % 12))) : BigInt(1 + (random() % 100));
        const output = amount * BigInt(90 + (random() % 20)) + BigInt(random() % 50);
        return amount === ASKED || random() % 8 === 0 ? whole(resolver, output) : part(resolver, amount, output);
      });
      const t = terms({
        minLegSellAmount: BigInt(random() % 20),
        maxLegs: random() % 5 === 0 ? 1 : 2 + (random() % 3),
        fee: { bps: random() % 50, side: random() % 2 === 0 ? "buy" : "sell" },
        gas: { perSwap: BigInt(random() % 200), perLeg: BigInt(random() % 60) },
      });
      const fill = composeLegs(bids, t);
      const expected = bruteForce(bids, t);
      expect(fill?.legs.map((l) => bids.indexOf(l.bid)) ?? null, `round ${round}`).toEqual(expected);
      const legs = fill?.legs.length ?? 0;
      byLegs[legs] = (byLegs[legs] ?? 0) + 1;
    }
    // The rounds reach every answer: none, one whole bid, and two, three and four legs.
    expect(byLegs.map((rounds) => rounds > 0)).toEqual([true, true, true, true, true]);
  });

  it("bounds its work: 20 bids, 4 legs, every 4 of them a cover", () => {
    // The worst case for the search: equal parts, so every set of four covers the amount.
    const bids = Array.from({ length: 20 }, (_, i) => part(`r${i}`, 25n, 2_500n + BigInt(i % 7)));
    const { parts } = candidatesOf(bids, terms());
    const started = performance.now();
    const { best, steps } = bestCover(parts, ASKED, 4, 0n);
    const tookMs = performance.now() - started;
    // Prefixes of at most 3 parts: 1 + 20 + 190 + 1,140 = 1,351; each lookup scans at most the 20 parts.
    expect(steps).toBeLessThanOrEqual(1_351 * 21);
    // The two parts of 2,506 (ranks 6 and 13) and the best-ranked two of 2,505 (ranks 5 and 12).
    expect(best?.members.map((m) => m.rank).sort((a, b) => a - b)).toEqual([5, 6, 12, 13]);
    console.log(`legs search, 20 equal parts, 4 legs: ${steps} steps, ${tookMs.toFixed(2)} ms`);
  });
});

/** Best rate first, taking each part that still fits: what an exact search must beat. */
function greedy(bids: LegBid[]): { resolvers: string[]; output: bigint } {
  const byRate = [...bids].sort((a, b) =>
    Number(b.outputAmount * (a.sellAmount as bigint) - a.outputAmount * (b.sellAmount as bigint)),
  );
  let left = ASKED;
  const taken: LegBid[] = [];
  for (const bid of byRate) {
    if ((bid.sellAmount as bigint) <= left) {
      taken.push(bid);
      left -= bid.sellAmount as bigint;
    }
  }
  return { resolvers: taken.map((b) => b.resolver), output: taken.reduce((s, b) => s + b.outputAmount, 0n) };
}

/** Every subset of the bids weighed by the rule of docs/legs.md: the best one's bid indices, or null. */
function bruteForce(bids: LegBid[], t: LegTerms): number[] | null {
  const { wholes, parts } = candidatesOf(bids, t);
  const all: Candidate<LegBid>[] = [...wholes, ...parts];
  let best: Choice<LegBid> | null = null;
  for (let mask = 1; mask < 1 << all.length; mask++) {
    const members = all.filter((_, i) => mask & (1 << i));
    const resolvers = new Set(members.map((m) => m.bid.resolver));
    const sold = members.reduce((s, m) => s + m.amount, 0n);
    if (members.length > t.maxLegs || resolvers.size < members.length || sold !== t.sellAmount) continue;
    const choice = { members, worth: members.reduce((s, m) => s + m.net - t.gas.perLeg, 0n) };
    if (!best || compareChoices(choice, best) < 0) best = choice;
  }
  if (!best || best.worth - t.gas.perSwap <= 0n) return null;
  return best.members.map((m) => m.rank).sort((a, b) => a - b);
}

/** A small seeded generator, so a failing round can be replayed. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state >>> 8;
  };
}
