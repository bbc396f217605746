import { describe, expect, it } from "vitest";
import { ladderSamples } from "../../src/auction/ladder-samples";
import { fakeCorridor, quoteInput } from "../support/fake-corridor";

describe("ladderSamples: what each asked node with a covering ladder did", () => {
  const ladders = [
    { resolver: "0xA", ladderOutput: 1_000_000n },
    { resolver: "0xB", ladderOutput: 1_000_000n },
    { resolver: "0xC", ladderOutput: 1_000_000n },
    { resolver: "0xD", ladderOutput: 1_000_000n },
  ];
  const bounds = { min: 960_000n, max: 1_030_000n };

  it("takes a bid within the band guard at its output, and the worst case for no bid or a bid out of band", () => {
    const bids = [
      { resolver: "0xa", outputAmount: 990_000n },
      { resolver: "0xB", outputAmount: 1_100_000n },
      { resolver: "0xC", outputAmount: 900_000n },
    ];
    expect(ladderSamples(ladders, bids, bounds)).toEqual([
      { resolver: "0xA", ladderOutput: 1_000_000n, outputAmount: 990_000n },
      { resolver: "0xB", ladderOutput: 1_000_000n, outputAmount: 0n },
      { resolver: "0xC", ladderOutput: 1_000_000n, outputAmount: 0n },
      { resolver: "0xD", ladderOutput: 1_000_000n, outputAmount: 0n },
    ]);
  });

  it("in a limit round, counts no worst case for a node whose ladder paid less than the order's limit", () => {
    const bids = [{ resolver: "0xA", outputAmount: 990_000n }];
    const limited = [...ladders.slice(0, 2), { resolver: "0xE", ladderOutput: 1_020_000n }];
    expect(ladderSamples(limited, bids, bounds, 1_010_000n)).toEqual([
      { resolver: "0xA", ladderOutput: 1_000_000n, outputAmount: 990_000n },
      { resolver: "0xE", ladderOutput: 1_020_000n, outputAmount: 0n },
    ]);
  });

  it("takes every bid as it is when no band steers", () => {
    const bids = [{ resolver: "0xB", outputAmount: 1_100_000n }];
    expect(ladderSamples(ladders.slice(1, 2), bids, null)).toEqual([
      { resolver: "0xB", ladderOutput: 1_000_000n, outputAmount: 1_100_000n },
    ]);
  });
});

describe("AuctionHouse: the asked nodes against their ladders (honest levels)", () => {
  it("hands over each asked node whose ladder covered the amount: its bid, or nothing for a decline, no reply or a bid out of band", async () => {
    const c = fakeCorridor({
      rfqWindowMs: 300,
      nodes: ["alpha", "beta", "gamma", "delta"],
      ladders: { alpha: 1_010_000n, gamma: 900_000n, delta: 1_000_000n },
    });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    // gamma streamed a ladder and declines; delta bids far above the band guard, so its bid can never win.
    await c.decline("gamma");
    await c.bid("delta", 1_100_000n);
    const outcome = await pending;
    if (outcome.kind !== "quoted") throw new Error("not quoted");
    // Measured once the answer has left, not on its path.
    expect(c.ladderBids).toEqual([]);
    await c.settled();
    const address = (name: string) => c.node(name).session.address;
    expect(c.ladderBids).toEqual([
      {
        bids: [
          { resolver: address("alpha"), ladderOutput: 1_010_000n, outputAmount: 1_000_000n },
          { resolver: address("gamma"), ladderOutput: 900_000n, outputAmount: 0n },
          { resolver: address("delta"), ladderOutput: 1_000_000n, outputAmount: 0n },
        ],
      },
    ]);
  });

  it("counts a node that never replies within the window as the worst case", async () => {
    const c = fakeCorridor({ rfqWindowMs: 200, ladders: { beta: 1_000_000n } });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.clock.advance(200);
    await pending;
    await c.settled();
    expect(c.ladderBids[0]?.bids).toEqual([
      { resolver: c.node("beta").session.address, ladderOutput: 1_000_000n, outputAmount: 0n },
    ]);
  });

  it("measures nothing when no asked node streams a ladder", async () => {
    const c = fakeCorridor({ rfqWindowMs: 1_000 });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    await pending;
    await c.settled();
    expect(c.ladderBids).toEqual([]);
  });
});
