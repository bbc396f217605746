import { describe, expect, it } from "vitest";
import { SPENT_HOLD_MS, type TakerHold, TakerHolds } from "../../src/auction/taker-holds";

const ALICE = "0xAAAA000000000000000000000000000000000001";
const BOB = "0xbbbb000000000000000000000000000000000002";
const T1 = "0x1111000000000000000000000000000000000001";
const T2 = "0x2222000000000000000000000000000000000002";
const USDC = "0xUSDC";
const CNGN = "0xCNGN";
const sameToken = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const book = (max = 100) => new TakerHolds(max, sameToken);
const hold = (quoteId: string, amount: bigint, over: Partial<TakerHold> = {}): TakerHold => ({
  quoteId,
  taker: T1,
  resolver: ALICE,
  token: USDC,
  amount,
  until: 90_000,
  ...over,
});

describe("TakerHolds", () => {
  it("sums one taker's open quotes on one resolver of one token, whatever the addresses' case", () => {
    const holds = book();
    holds.hold(hold("q1", 4_000n), 0);
    holds.hold(hold("q2", 500n), 0);
    holds.hold(hold("q3", 700n, { token: CNGN }), 0);
    holds.hold(hold("q4", 9_000n, { resolver: BOB }), 0);
    holds.hold(hold("q5", 2_000n, { taker: T2 }), 0);
    expect(holds.held(T1.toUpperCase().replace("0X", "0x"), ALICE.toLowerCase(), "0xusdc", 1_000, null)).toBe(4_500n);
    expect(holds.held(T1, ALICE, CNGN, 1_000, null)).toBe(700n);
    expect(holds.held(T1, BOB, USDC, 1_000, null)).toBe(9_000n);
    // Another taker's quotes hold nothing against this one, nor this one's against it.
    expect(holds.held(T2, ALICE, USDC, 1_000, null)).toBe(2_000n);
    expect(holds.held(T2, BOB, USDC, 1_000, null)).toBe(0n);
  });

  it("ends a hold at its deadline, and keeps none past it", () => {
    const holds = book();
    holds.hold(hold("q1", 4_000n, { until: 10_000 }), 0);
    holds.hold(hold("q2", 1_000n, { until: 20_000 }), 0);
    expect(holds.held(T1, ALICE, USDC, 9_999, null)).toBe(5_000n);
    expect(holds.held(T1, ALICE, USDC, 10_000, null)).toBe(1_000n);
    // A pair nobody asks about again is swept when a later quote is held.
    holds.hold(hold("q3", 1n, { until: 100_000, taker: T2 }), 20_000);
    expect(holds.size()).toBe(1);
  });

  it("keeps at most its cap, letting go of the hold that ends soonest first", () => {
    const holds = book(3);
    holds.hold(hold("q1", 1n, { until: 50_000 }), 0);
    holds.hold(hold("q2", 10n, { until: 20_000 }), 0);
    holds.hold(hold("q3", 100n, { until: 80_000 }), 0);
    holds.hold(hold("q4", 1_000n, { until: 90_000 }), 0);
    expect(holds.size()).toBe(3);
    expect(holds.held(T1, ALICE, USDC, 1_000, null)).toBe(1_101n);
    holds.end("q4");
    holds.hold(hold("q5", 10_000n, { until: 90_000 }), 0);
    holds.hold(hold("q6", 100_000n, { until: 95_000 }), 0);
    expect(holds.size()).toBe(3);
    expect(holds.held(T1, ALICE, USDC, 1_000, null)).toBe(110_100n);
  });

  it("stays bounded under a flood of holds that end early", () => {
    const holds = book(10);
    for (let i = 0; i < 1_000; i++) {
      holds.hold(hold(`q${i}`, 1n, { until: 1_000_000 - i }), 0);
      if (i % 2 === 0) holds.end(`q${i}`);
    }
    expect(holds.size()).toBeLessThanOrEqual(10);
    expect(holds.held(T1, ALICE, USDC, 1, null)).toBe(BigInt(holds.size()));
  });

  it("ends a failed or cancelled quote's hold at once, keeps a submitted one's, and ignores quotes it does not hold", () => {
    const holds = book();
    holds.hold(hold("q1", 4_000n), 0);
    holds.hold(hold("q2", 2_000n), 0);
    holds.hold(hold("q3", 1_000n), 0);
    holds.moved(
      [
        { quoteId: "q1", fill: { status: "failed" } },
        { quoteId: "q2", ended: true },
        { quoteId: "q3", fill: { status: "submitted" } },
        { quoteId: "elsewhere", fill: { status: "failed" } },
        { quoteId: "q3" },
      ],
      0,
    );
    expect(holds.held(T1, ALICE, USDC, 0, null)).toBe(1_000n);
    expect(holds.size()).toBe(1);
  });

  it("counts a settled quote only against reads started before it settled, and past its deadline until one is in", () => {
    const holds = book();
    holds.hold(hold("q1", 4_000n, { until: 10_000 }), 0);
    holds.settled("q1", 5_000);
    // A read from before the settlement still shows the 4,000 that left, for every taker alike.
    expect(holds.held(T1, ALICE, USDC, 6_000, 4_000)).toBe(4_000n);
    expect(holds.held(T2, ALICE, USDC, 6_000, 4_000)).toBe(4_000n);
    expect(holds.held(T2, BOB, USDC, 6_000, 4_000)).toBe(0n);
    expect(holds.held(T1, ALICE, USDC, 12_000, 4_000)).toBe(4_000n);
    expect(holds.held(T1, ALICE, USDC, 12_000, null)).toBe(4_000n);
    // A read started after it does not: the hold ends.
    expect(holds.held(T2, ALICE, USDC, 12_000, 5_000)).toBe(0n);
    expect(holds.held(T1, ALICE, USDC, 12_000, 5_000)).toBe(0n);
    expect(holds.size()).toBe(0);
    // With no later read, it ends SPENT_HOLD_MS after the settlement.
    holds.hold(hold("q2", 1_000n, { until: 10_000 }), 0);
    holds.settled("q2", 5_000);
    expect(holds.held(T1, ALICE, USDC, 5_000 + SPENT_HOLD_MS - 1, 0)).toBe(1_000n);
    expect(holds.held(T1, ALICE, USDC, 5_000 + SPENT_HOLD_MS, 0)).toBe(0n);
  });

  it("moves a quote held again to its new winner", () => {
    const holds = book();
    holds.hold(hold("q1", 4_000n), 0);
    holds.hold(hold("q1", 3_000n, { resolver: BOB }), 0);
    expect([holds.held(T1, ALICE, USDC, 0, null), holds.held(T1, BOB, USDC, 0, null)]).toEqual([0n, 3_000n]);
  });
});
