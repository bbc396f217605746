import { describe, expect, it } from "vitest";
import { CorridorPrices, type LevelCount } from "../../src/levels/corridor-prices";

const CNGN = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const USDC = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";

/** Prices whose stored counts are kept here; nothing else of the corridor is reached. */
function prices() {
  const stored: LevelCount[][] = [];
  const unused = () => {
    throw new Error("not reached by sampling");
  };
  const p = new CorridorPrices({
    chainId: 31337,
    tokens: [CNGN, USDC],
    sameToken: (a, b) => a.toLowerCase() === b.toLowerCase(),
    eligible: unused,
    canDeliver: unused,
    demoted: () => new Set(),
    charges: unused,
    bounds: unused,
    store: (counts) => stored.push(counts),
    readSloppy: async () => [],
    waitUntil: () => {},
  });
  return { p, stored };
}

describe("CorridorPrices.sampled: an auction's samples counted in their day's buckets", () => {
  const at = Date.parse("2026-11-28T17:00:00Z");

  it("counts each node's sample in its bucket, one count per resolver and bucket", () => {
    const { p, stored } = prices();
    p.sampled(
      [
        { resolver: "0xAA", ladderOutput: 1_000_000n, outputAmount: 990_000n },
        { resolver: "0xbb", ladderOutput: 1_000_000n, outputAmount: 0n },
      ],
      at,
    );
    expect(stored).toEqual([
      [
        { resolver: "0xaa", day: "2026-11-28", bucketBps: 100, samples: 1 },
        { resolver: "0xbb", day: "2026-11-28", bucketBps: 10_000, samples: 1 },
      ],
    ]);
  });

  it("measures nothing against a ladder worth nothing at the amount, and keeps every other bidder's sample", () => {
    const { p, stored } = prices();
    p.sampled(
      [
        { resolver: "0xaa", ladderOutput: 0n, outputAmount: 999_000n },
        { resolver: "0xbb", ladderOutput: 1_000_000n, outputAmount: 999_900n },
      ],
      at,
    );
    expect(stored).toEqual([[{ resolver: "0xbb", day: "2026-11-28", bucketBps: 1, samples: 1 }]]);
  });
});
