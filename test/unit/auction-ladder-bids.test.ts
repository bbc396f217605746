import { describe, expect, it } from "vitest";
import { fakeCorridor, quoteInput } from "../support/fake-corridor";

describe("AuctionHouse: firm bids against their nodes' ladders (honest levels)", () => {
  it("hands over each firm bid of a node whose ladder covered the amount as the rfq went out, with that value", async () => {
    const c = fakeCorridor({
      rfqWindowMs: 1_000,
      nodes: ["alpha", "beta", "gamma"],
      ladders: { alpha: 1_010_000n, gamma: 900_000n },
    });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    // gamma streamed a ladder but declines: a decline is no firm bid, so nothing is measured of it.
    const rfq = await c.node("gamma").next("rfq");
    c.house.onDecline(c.node("gamma").session, { type: "decline", rfqId: rfq.rfqId, reason: "busy" });
    const outcome = await pending;
    if (outcome.kind !== "quoted") throw new Error("not quoted");
    // Measured once the answer has left, not on its path.
    expect(c.ladderBids).toEqual([]);
    await c.settled();
    expect(c.ladderBids).toEqual([
      {
        quoteId: outcome.quote.quoteId,
        bids: [{ resolver: c.node("alpha").session.address, ladderOutput: 1_010_000n, outputAmount: 1_000_000n }],
      },
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
