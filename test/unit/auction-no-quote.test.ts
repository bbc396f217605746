import { describe, expect, it } from "vitest";
import { noReplies, noWinner } from "../../src/auction/quote-outcome";

describe("noWinner", () => {
  const replies = { ...noReplies(), valid: 2 };

  it("names a limit round's best output when it misses the order's minimum", () => {
    expect(noWinner({ offers: [], winner: null, forged: [], belowLimit: 95n }, replies, 3)).toMatchObject({
      kind: "refused",
      status: 404,
      code: "below_limit",
      extras: { replies, bestReceived: "95" },
    });
  });

  it("has no offers when the winner's settlement cannot be built, or no bid could win", () => {
    const unbuildable = noWinner({ offers: [], winner: null, forged: [], unbuildable: true }, replies, 3);
    expect(unbuildable).toMatchObject({ code: "no_offers", extras: { replies, nodesOnline: 3 } });
    expect(unbuildable).toMatchObject({ message: expect.stringContaining("RPC") });
    const none = noWinner({ offers: [], winner: null, forged: [] }, replies, 3);
    expect(none).toMatchObject({ code: "no_offers", message: "No resolver offered a price that could win." });
  });
});
