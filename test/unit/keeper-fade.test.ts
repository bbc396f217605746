import { describe, expect, it } from "vitest";
import type { SignedOffer } from "../../src/db/fades";
import { feeOf, nextOffers } from "../../src/keeper/fade";

/** The offers a faded winner's quote may fill with (docs/settlement.md, "When the winner fades"). */

const WINNER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

const offer = (rank: number, over: Partial<SignedOffer> = {}): SignedOffer => ({
  rank,
  resolver: `0x${String(rank).repeat(40)}`,
  name: `r${rank}`,
  outputAmount: "1000000",
  status: "lost",
  signature: "0xsig",
  received: "949000",
  sellAmount: null,
  ...over,
});

describe("nextOffers", () => {
  it("takes the lost offers of other resolvers that meet the minimum, by rank", () => {
    const offers = [
      offer(4, { received: "940000" }),
      offer(1, { resolver: WINNER, status: "won", received: "950000" }),
      offer(3, { received: "945000" }),
      offer(2, { received: "948000" }),
    ];
    expect(nextOffers(offers, WINNER, "945000").map((o) => o.rank)).toEqual([2, 3]);
  });

  it("never takes a steered, faded or unsigned offer, nor another bid of the winner", () => {
    const offers = [
      offer(2, { status: "outside_band" }),
      offer(3, { status: "demoted" }),
      offer(4, { status: "faded" }),
      offer(5, { signature: null }),
      offer(6, { received: null }),
      offer(7, { resolver: WINNER.toLowerCase() }),
      // A part fills no swap alone (docs/legs.md).
      offer(8, { sellAmount: "500" }),
    ];
    expect(nextOffers(offers, WINNER, "1")).toEqual([]);
  });
});

describe("feeOf", () => {
  it("is the output less what the recipient gets and a gas fee charged in the buy token", () => {
    const next = { ...offer(2), signature: "0xsig", received: "948950" };
    const quote = {
      buyToken: USDC,
      gasFee: { token: USDC.toLowerCase(), amount: "50000", source: "fallback" as const },
    };
    expect(feeOf(quote, next)).toBe(1_050n);
    expect(feeOf({ ...quote, gasFee: { ...quote.gasFee, token: "0xother" } }, next)).toBe(51_050n);
  });
});
