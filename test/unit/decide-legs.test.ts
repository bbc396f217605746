import { describe, expect, it } from "vitest";
import type { LegTerms } from "../../src/auction/compose-legs";
import { decideWinner } from "../../src/auction/decide";
import { type RankedOffer, rankBids } from "../../src/auction/rank";
import type { QuoteSigning, RfqTerms } from "../../src/chains/adapter";
import { FakeClock } from "../support/fake-clock";
import { legBid } from "../support/leg-bids";

// An auction of 100 in which parts were bid (docs/legs.md): decided through the same `decideWinner`, with the
// fill composed of legs; each leg's signature checked and its output held, all or none.

const terms = { rfqId: "r", quoteId: "q", sellAmount: 100n } as RfqTerms;
/** No protocol fee; the gas fee 0 for the swap and 10 a leg, so each extra leg costs the recipient 10. */
const legTerms: LegTerms = {
  sellAmount: 100n,
  minLegSellAmount: 10n,
  maxLegs: 4,
  fee: { bps: 0, side: "buy" },
  gas: { perSwap: 0n, perLeg: 10n },
};
const signing: QuoteSigning = { kind: "taker", takerSigning: (_t, w) => ({ resolver: w.resolver }) };

const bid = legBid;

/** The whole bid `w` and the knapsack of docs/legs.md: parts a 60, b 50, d 50, c 40. */
const auction = () =>
  rankBids(
    [bid("w", 10_000n), bid("a", 6_100n, 60n), bid("b", 5_050n, 50n), bid("d", 5_040n, 50n), bid("c", 3_900n, 40n)],
    { bandGuardBps: 300, bounds: null },
  ).offers;

function decide(offers: RankedOffer[], opts: { forged?: string[]; short?: string[] } = {}) {
  const checked: string[] = [];
  const held = new Set<string>();
  const decision = decideWinner(
    {
      signing,
      terms,
      nodes: new Map(),
      fresh: Promise.resolve(),
      clock: new FakeClock(),
      amountsOf: (o) => (o.bid as ReturnType<typeof bid>).amounts as never,
      verifyBid: (o) => {
        checked.push(o.resolver);
        return !opts.forged?.includes(o.resolver);
      },
      askToSign: async () => null,
      strike: () => {},
      hold: (o) => {
        if (opts.short?.includes(o.resolver)) return null;
        held.add(o.resolver);
        return () => held.delete(o.resolver);
      },
      legTerms: async () => legTerms,
    },
    offers,
  );
  return { decision, checked, held };
}

describe("decideWinner with parts", () => {
  it("fills with the two parts that pay most after their extra leg, not the best rate first nor the whole bid", async () => {
    const { decision, held } = decide(auction());
    const d = await decision;
    // b + d: 10,090 − 2 legs × 10 = 10,070 > a + c (9,980) > w (9,990 − 0).
    expect(d.winner?.amounts).toMatchObject({ outputAmount: 10_090n, gasFee: 20n, received: 10_070n, takerPays: 100n });
    expect(d.winner?.legs).toEqual([
      { resolver: "b", sellAmount: "50", outputAmount: "5050", signature: "sig-b" },
      { resolver: "d", sellAmount: "50", outputAmount: "5040", signature: "sig-d" },
    ]);
    // The quote's resolver is its largest leg's, the better ranked of two equal ones.
    expect(d.winner?.offer.resolver).toBe("b");
    expect(d.offers.filter((o) => o.won).map((o) => [o.resolver, o.sellAmount])).toEqual([
      ["b", "50"],
      ["d", "50"],
    ]);
    expect([...(await held)].sort()).toEqual(["b", "d"]);
  });

  it("leaves a forged leg out of the offers and composes again from the rest", async () => {
    const { decision, checked } = decide(auction(), { forged: ["d"] });
    const d = await decision;
    // Without d: w alone (9,990) beats a + c (9,980).
    expect(d.forged.map((o) => o.resolver)).toEqual(["d"]);
    expect(d.winner?.legs).toBeUndefined();
    expect(d.winner?.offer.resolver).toBe("w");
    expect(d.winner?.amounts.received).toBe(9_990n);
    expect(d.offers.map((o) => o.resolver)).not.toContain("d");
    expect(checked).toEqual(["b", "d", "w"]);
  });

  it("lets go of the legs it held when one is not covered, and composes again without that one", async () => {
    const { decision, held } = decide(auction(), { short: ["b"] });
    const d = await decision;
    // Without b: w (9,990) beats a + c (9,980) and d + ... (no part of 50 left to pair with d).
    expect(d.winner?.offer.resolver).toBe("w");
    expect([...held]).toEqual(["w"]);
    expect(d.offers.filter((o) => o.won).map((o) => o.resolver)).toEqual(["w"]);
  });

  it("fills by legs a swap no whole bid covers, and has no winner when no set of parts covers it", async () => {
    const parts = rankBids([bid("a", 6_100n, 60n), bid("c", 3_900n, 40n)], { bandGuardBps: 300, bounds: null }).offers;
    const d = await decide(parts).decision;
    expect(d.winner?.amounts.received).toBe(9_980n);
    expect(d.winner?.legs?.map((l) => l.resolver)).toEqual(["a", "c"]);
    const short = rankBids([bid("a", 6_100n, 60n), bid("b", 5_050n, 50n)], { bandGuardBps: 300, bounds: null }).offers;
    const none = await decide(short).decision;
    expect(none.winner).toBeNull();
    expect(none.offers.some((o) => o.won)).toBe(false);
  });
});
