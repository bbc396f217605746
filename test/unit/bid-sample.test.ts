import { describe, expect, it } from "vitest";
import { sampleBids, secureRandomBelow } from "../../src/auction/bid-signatures";

const bidders = Array.from({ length: 99 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);

describe("sampleBids", () => {
  it("draws at most `count` distinct bids, however many bid", () => {
    for (const n of [0, 1, 3, 4, 5, 99]) {
      const drawn = sampleBids(bidders.slice(0, n), 4, secureRandomBelow);
      expect(drawn).toHaveLength(Math.min(4, n));
      expect(new Set(drawn).size).toBe(drawn.length);
      for (const d of drawn) expect(bidders.slice(0, n)).toContain(d);
    }
  });

  it("checks every bidder regularly: over 2,000 auctions of 99 bidders each is drawn near 4/99 of them", () => {
    const times = new Map<string, number>();
    const auctions = 2_000;
    for (let a = 0; a < auctions; a++) {
      for (const d of sampleBids(bidders, 4, secureRandomBelow)) times.set(d, (times.get(d) ?? 0) + 1);
    }
    expect(times.size).toBe(bidders.length);
    // Binomial(2000, 4/99): about 81 each, standard deviation about 8.8; 36 and 126 are over 5 of them away (a run fails about once in 10,000).
    for (const count of times.values()) {
      expect(count).toBeGreaterThan(36);
      expect(count).toBeLessThan(126);
    }
    expect([...times.values()].reduce((a, b) => a + b, 0)).toBe(auctions * 4);
  });

  it("follows the random source, not the bids' order (a partial Fisher–Yates shuffle)", () => {
    const last = (n: number) => n - 1;
    expect(sampleBids(["a", "b", "c", "d"], 2, last)).toEqual(["d", "a"]);
    expect(sampleBids(["a", "b", "c", "d"], 2, () => 0)).toEqual(["a", "b"]);
  });

  it("draws uniformly below n", () => {
    for (let i = 0; i < 1_000; i++) {
      const r = secureRandomBelow(7);
      expect(Number.isInteger(r) && r >= 0 && r < 7).toBe(true);
    }
  });
});
