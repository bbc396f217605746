import { describe, expect, it } from "vitest";
import type { PendingTx } from "../../src/keeper/pending";
import { inFlightOf, winnersOutput } from "../../src/keeper/spent-by-relay";

const THIN = "0xAAAA000000000000000000000000000000000001";
const OTHER = "0xbbbb000000000000000000000000000000000002";
const USDC = "0xUSDC";
const auction = Date.parse("2026-11-28T12:00:00.000Z");

/** A followed transaction of `resolver`'s fill of `quoteId`, made at `at`, in `state` since `since`. */
const tx = (
  quoteId: string,
  over: Partial<PendingTx> = {},
  resolver: string | null = THIN,
  at = "2026-11-28T12:00:01.000Z",
) =>
  ({
    chainId: 31337,
    state: "sent",
    since: auction + 1_000,
    ...over,
    submission: { quoteId, resolver, at },
  }) as PendingTx;

describe("the keeper's fills a short winner's auction did not count", () => {
  it("names the keeper's fills of the resolver on the chain in flight, or landed since the auction, made within a quote's life", () => {
    const at = { resolver: THIN.toLowerCase(), chainId: 31337, auction, madeAfter: "2026-11-28T11:59:30.000Z" };
    const txs = [
      tx("q_sent"),
      tx("q_signed", { state: "signed" }),
      tx("q_landed_since", { state: "mined", since: auction + 500 }),
      // Landed before the auction: the auction's view held it already.
      tx("q_landed_before", { state: "mined", since: auction - 500 }),
      // Another resolver's, another chain's, and one made before any quote still open at the auction.
      tx("q_other", {}, OTHER),
      tx("q_chain", { chainId: 1 }),
      tx("q_old", {}, THIN, "2026-11-28T11:59:00.000Z"),
      tx("q_nobody", {}, null),
    ];
    expect(inFlightOf(txs, at)).toEqual(["q_sent", "q_signed", "q_landed_since"]);
  });

  it("reads what the winner's leg pays: received and each fee charged in the buy token", () => {
    const quote = {
      buyToken: USDC,
      received: "1990000",
      fee: { token: "0xusdc", amount: "2000" },
      gasFee: { token: "0xCNGN", amount: "50000" },
    };
    expect(winnersOutput(quote)).toBe(1_992_000n);
    expect(winnersOutput({ ...quote, gasFee: { token: USDC, amount: "8000" } })).toBe(2_000_000n);
  });
});
