import { describe, expect, it } from "vitest";
import { type QuoteOutcome, quoteAnswer } from "../../src/auction/quote-outcome";

/** The body of a quote's answer: the record and what the taker signs, nothing kept for settlement. */

const timings = { auctionMs: 1, rankingMs: 0, storageMs: 0 };
const quote = { quoteId: "q_1", status: "quoted" } as unknown as Extract<QuoteOutcome, { kind: "quoted" }>["quote"];

const bodyOf = (signing: Record<string, string | number | boolean | object>) => {
  const answer = quoteAnswer({ kind: "quoted", quote, signing, timings } as QuoteOutcome, {});
  if (answer.kind !== "quoted") throw new Error("not quoted");
  return JSON.parse(answer.body) as Record<string, unknown>;
};

describe("quoteAnswer", () => {
  it("gives a Solana taker its transaction and its last valid height, not the makers' keys or the rent taken as paid", () => {
    const body = bodyOf({
      transaction: "AQID",
      lastValidBlockHeight: 150,
      createsRecipientAccount: false,
      legSigners: [{ resolver: "0xabc", key: "9xQe" }],
    });
    expect(body).toEqual({ quoteId: "q_1", status: "quoted", transaction: "AQID", lastValidBlockHeight: 150 });
  });

  it("gives an EVM taker its typed data", () => {
    const typedData = { primaryType: "PermitWitnessTransferFrom", message: {} };
    expect(bodyOf({ typedData })).toEqual({ quoteId: "q_1", status: "quoted", typedData });
  });
});
