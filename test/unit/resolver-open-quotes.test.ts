import { describe, expect, it } from "vitest";
import { OpenQuotes } from "../../src/clients/resolver/open-quotes";
import type { RfqFrame } from "../../src/protocol/relay-frames";

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const CNGN = "0x46C85152bFe9f96829aA94755D9f915F9B10EF5F";
const ONE = "0x1111111111111111111111111111111111111111";
const TWO = "0x2222222222222222222222222222222222222222";
const inventory = [
  { chainId: 1, token: USDC, balance: "5000", allowance: "9000" },
  { chainId: 1, token: CNGN, balance: "100", allowance: "100" },
];

/** An rfq of `taker` buying USDC on chain 1, its deadline at 100 s. */
const rfq = (n: number, taker = ONE, buyToken = USDC) =>
  ({ rfqId: `r_${n}`, quoteId: `q_${n}`, taker, chainId: 1, buyToken, deadline: 100 }) as RfqFrame;

/** A quote of `taker`'s the node bid `amount` on and won. */
function won(open: OpenQuotes, n: number, amount: bigint, taker = ONE) {
  open.bid(rfq(n, taker), amount, 0);
  open.result(`r_${n}`, true);
}

describe("OpenQuotes: the reference resolver's account of its open quotes", () => {
  it("holds what it won for its taker, not what it bid and lost, in the token and chain it sells", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    open.bid(rfq(2), 2_000n, 0);
    expect(open.held(ONE.toUpperCase().replace("0X", "0x"), 1, USDC.toLowerCase(), 1_000, null)).toBe(4_000n);
    open.result("r_2", false);
    expect(open.held(ONE, 1, USDC, 1_000, null)).toBe(4_000n);
    expect(open.held(ONE, 1, CNGN, 1_000, null)).toBe(0n);
    expect(open.held(ONE, 2, USDC, 1_000, null)).toBe(0n);
    // Another taker's open quotes hold nothing against this one's.
    expect(open.held(TWO, 1, USDC, 1_000, null)).toBe(0n);
    expect(open.held(null, 1, USDC, 1_000, null)).toBe(0n);
    expect(open.size()).toEqual({ won: 1, bids: 0 });
  });

  it("sells a taker only what is free of its own open quotes: balance and allowance less them, never below zero", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    won(open, 2, 2_000n);
    won(open, 3, 1_000n, TWO);
    expect(open.free(inventory, ONE, 1_000, 0)).toEqual([
      { chainId: 1, token: USDC, balance: "0", allowance: "3000" },
      inventory[1],
    ]);
    expect(open.free(inventory, TWO, 1_000, 0)[0]).toEqual({
      chainId: 1,
      token: USDC,
      balance: "4000",
      allowance: "8000",
    });
    expect(open.free(inventory, null, 1_000, 0)).toEqual(inventory);
  });

  it("lets go of a failed quote at once, and counts a settled one for every taker until a read started after it is in", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    won(open, 2, 1_000n);
    open.execution("q_1", "submitted", 10_000);
    open.execution("q_1", "failed", 10_000);
    expect(open.held(ONE, 1, USDC, 10_000, 0)).toBe(1_000n);
    open.execution("q_2", "settled", 20_000);
    expect(open.held(ONE, 1, USDC, 21_000, 19_999)).toBe(1_000n);
    expect(open.held(TWO, 1, USDC, 21_000, 19_999)).toBe(1_000n);
    expect(open.held(null, 1, USDC, 21_000, 19_999)).toBe(1_000n);
    expect(open.held(TWO, 1, USDC, 31_000, 20_000)).toBe(0n);
    expect(open.held(ONE, 1, USDC, 31_000, 20_000)).toBe(0n);
    expect(open.size()).toEqual({ won: 0, bids: 0 });
  });

  it("forgets a quote, or a bid whose result never came, within a second of its deadline", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    open.bid(rfq(2), 2_000n, 0);
    expect(open.held(ONE, 1, USDC, 99_999, null)).toBe(4_000n);
    expect(open.held(ONE, 1, USDC, 101_000, null)).toBe(0n);
    expect(open.size()).toEqual({ won: 0, bids: 0 });
  });
});
