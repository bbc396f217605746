import { describe, expect, it } from "vitest";
import { InventoryHolds, SPENT_HOLD_MS } from "../../src/auction/holds";
import { memoryHoldStore } from "../support/fake-corridor";

const ALICE = "0xAAAA000000000000000000000000000000000001";
const BOB = "0xbbbb000000000000000000000000000000000002";
const USDC = "0xUSDC";
const CNGN = "0xCNGN";
const sameToken = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const setup = () => {
  const store = memoryHoldStore();
  return { store, holds: new InventoryHolds(store, sameToken) };
};
const hold = (quoteId: string, amount: bigint, until = 90_000, resolver = ALICE, token = USDC) => ({
  quoteId,
  resolver,
  token,
  amount,
  until,
});

describe("InventoryHolds", () => {
  it("sums a resolver's open quotes of one token, whatever the address's case", () => {
    const { holds } = setup();
    holds.hold(hold("q1", 4_000n), 0);
    holds.hold(hold("q2", 500n), 0);
    holds.hold(hold("q3", 700n, 90_000, ALICE, CNGN), 0);
    holds.hold(hold("q4", 9_000n, 90_000, BOB), 0);
    expect(holds.held(ALICE.toLowerCase(), "0xusdc", 1_000, null)).toBe(4_500n);
    expect(holds.held(ALICE, CNGN, 1_000, null)).toBe(700n);
    expect(holds.held(BOB, USDC, 1_000, null)).toBe(9_000n);
    expect(holds.held("0xcccc000000000000000000000000000000000003", USDC, 1_000, null)).toBe(0n);
  });

  it("ends a hold at its deadline, and keeps none past it in memory or in the store", () => {
    const { holds, store } = setup();
    holds.hold(hold("q1", 4_000n, 10_000), 0);
    holds.hold(hold("q2", 1_000n, 20_000), 0);
    expect(holds.held(ALICE, USDC, 9_999, null)).toBe(5_000n);
    expect(holds.held(ALICE, USDC, 10_000, null)).toBe(1_000n);
    expect([...store.kept.keys()]).toEqual(["q2"]);
    // A resolver nobody asks about again is swept when a later quote is held.
    holds.hold(hold("q3", 1n, 100_000, BOB), 20_000);
    expect(holds.size()).toBe(1);
    expect([...store.kept.keys()]).toEqual(["q3"]);
  });

  it("ends a failed or cancelled quote's hold at once, and ignores quotes it does not hold", () => {
    const { holds, store } = setup();
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
      5_000,
    );
    expect(holds.held(ALICE, USDC, 5_000, null)).toBe(1_000n);
    expect([...store.kept.keys()]).toEqual(["q3"]);
  });

  it("counts a settled quote's hold only against reads started before it settled", () => {
    const { holds } = setup();
    holds.hold(hold("q1", 4_000n), 0);
    holds.moved([{ quoteId: "q1", fill: { status: "settled" } }], 5_000);
    // The last read started before the settlement still shows the output in the balance.
    expect(holds.held(ALICE, USDC, 6_000, 4_000)).toBe(4_000n);
    expect(holds.held(ALICE, USDC, 6_000, null)).toBe(4_000n);
    // A read started at or after it does not: the hold is over.
    expect(holds.held(ALICE, USDC, 16_000, 5_000)).toBe(0n);
    expect(holds.size()).toBe(0);
  });

  it("keeps a settled hold SPENT_HOLD_MS past its settlement for a later read, even past the deadline, and no longer", () => {
    const { holds } = setup();
    holds.hold(hold("q1", 4_000n, 10_000), 0);
    holds.settled("q1", 9_000);
    expect(holds.held(ALICE, USDC, 12_000, 1_000)).toBe(4_000n);
    expect(holds.held(ALICE, USDC, 9_000 + SPENT_HOLD_MS, 1_000)).toBe(0n);
    expect(holds.size()).toBe(0);
  });

  it("moves a quote's hold to the resolver that takes its win over", () => {
    const { holds } = setup();
    holds.hold(hold("q1", 4_000n), 0);
    holds.hold(hold("q1", 3_000n, 90_000, BOB), 0);
    expect(holds.held(ALICE, USDC, 1, null)).toBe(0n);
    expect(holds.held(BOB, USDC, 1, null)).toBe(3_000n);
    expect(holds.size()).toBe(1);
  });

  it("reads back what its store kept, as a restarted corridor does, without those past their end", () => {
    const { holds, store } = setup();
    holds.hold(hold("q1", 4_000n, 10_000), 0);
    holds.hold(hold("q2", 2_000n, 50_000), 0);
    holds.settled("q2", 1_000);
    const again = new InventoryHolds(store, sameToken);
    expect(again.held(ALICE, USDC, 20_000, 500)).toBe(2_000n);
    expect(again.held(ALICE, USDC, 20_000, 1_000)).toBe(0n);
    expect(store.kept.size).toBe(0);
  });

  it("ends a hold it has not read yet, in the store too", () => {
    const { holds, store } = setup();
    holds.hold(hold("q1", 4_000n), 0);
    new InventoryHolds(store, sameToken).end("q1");
    expect(store.kept.size).toBe(0);
  });

  it("ends holds in the order of their deadlines whatever the order they were held in, as a full count would", () => {
    const { holds } = setup();
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const all = Array.from({ length: 500 }, (_, i) => ({
      ...hold(`q${i}`, BigInt(1 + Math.floor(random() * 1_000)), Math.floor(random() * 100_000)),
      resolver: random() < 0.5 ? ALICE : BOB,
    }));
    for (const h of all) holds.hold(h, 0);
    for (let i = 0; i < 100; i += 7) holds.end(`q${i}`);
    for (const now of [0, 1, 10_000, 33_333, 50_000, 77_777, 99_999, 100_000]) {
      const open = all.filter((h, i) => h.until > now && !(i % 7 === 0 && i < 100));
      for (const who of [ALICE, BOB]) {
        const expected = open.filter((h) => h.resolver === who).reduce((sum, h) => sum + h.amount, 0n);
        expect(holds.held(who, USDC, now, null)).toBe(expected);
      }
      expect(holds.size()).toBe(open.length);
    }
  });
});
