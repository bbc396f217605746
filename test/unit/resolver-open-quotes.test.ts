import { describe, expect, it } from "vitest";
import { OpenQuotes } from "../../src/clients/resolver/open-quotes";
import type { RfqFrame } from "../../src/protocol/relay-frames";

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const CNGN = "0x46C85152bFe9f96829aA94755D9f915F9B10EF5F";
const inventory = [
  { chainId: 1, token: USDC, balance: "5000", allowance: "9000" },
  { chainId: 1, token: CNGN, balance: "100", allowance: "100" },
];

/** An rfq buying USDC on chain 1, its deadline at 100 s. */
const rfq = (n: number, buyToken = USDC) =>
  ({ rfqId: `r_${n}`, quoteId: `q_${n}`, chainId: 1, buyToken, deadline: 100 }) as RfqFrame;

/** A quote the node bid `amount` on and won. */
function won(open: OpenQuotes, n: number, amount: bigint) {
  open.bid(rfq(n), amount, 0);
  open.result(`r_${n}`, true);
}

describe("OpenQuotes: the reference resolver's account of its open quotes", () => {
  it("holds what it won, not what it bid and lost, in the token and chain it sells", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    open.bid(rfq(2), 2_000n, 0);
    expect(open.held(1, USDC.toLowerCase(), 1_000, null)).toBe(4_000n);
    open.result("r_2", false);
    expect(open.held(1, USDC, 1_000, null)).toBe(4_000n);
    expect(open.held(1, CNGN, 1_000, null)).toBe(0n);
    expect(open.held(2, USDC, 1_000, null)).toBe(0n);
    expect(open.size()).toEqual({ won: 1, bids: 0 });
  });

  it("sells only what is free: balance and allowance less what is held, never below zero", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    won(open, 2, 2_000n);
    expect(open.free(inventory, 1_000, 0)).toEqual([
      { chainId: 1, token: USDC, balance: "0", allowance: "3000" },
      inventory[1],
    ]);
  });

  it("lets go of a failed quote at once, and of a settled one once a read started after it is in", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    won(open, 2, 1_000n);
    open.execution("q_1", "submitted", 10_000);
    open.execution("q_1", "failed", 10_000);
    expect(open.held(1, USDC, 10_000, 0)).toBe(1_000n);
    open.execution("q_2", "settled", 20_000);
    expect(open.held(1, USDC, 21_000, 19_999)).toBe(1_000n);
    expect(open.held(1, USDC, 31_000, 20_000)).toBe(0n);
    expect(open.size()).toEqual({ won: 0, bids: 0 });
  });

  it("forgets a quote, or a bid whose result never came, within a second of its deadline", () => {
    const open = new OpenQuotes();
    won(open, 1, 4_000n);
    open.bid(rfq(2), 2_000n, 0);
    expect(open.held(1, USDC, 99_999, null)).toBe(4_000n);
    expect(open.held(1, USDC, 101_000, null)).toBe(0n);
    expect(open.size()).toEqual({ won: 0, bids: 0 });
  });
});
