import { describe, expect, it } from "vitest";
import { rfqTerms } from "../../src/auction/rfq";
import { findCorridor } from "../../src/chains/corridor-keys";
import { gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import type { QuoteInput } from "../../src/types";
import { CNGN, TAKER, USDC } from "../support/fake-corridor";

const chain = localConfig.chains.find((c) => c.kind === "evm");
const corridor = chain && findCorridor(localConfig, chain.chainId, CNGN, USDC);
if (!corridor) throw new Error("no local EVM corridor");

const input: QuoteInput = {
  chainId: corridor.chain.chainId,
  sellToken: CNGN,
  buyToken: USDC,
  sellAmount: "1580000000",
  taker: TAKER,
  recipient: TAKER,
  requestedAt: 0,
};
const gas = gasChargeFor({ fixed: "5", token: CNGN }, CNGN, USDC, (a, b) => a.toLowerCase() === b.toLowerCase());
const fee = { token: USDC, bps: 10, side: "buy" as const };

describe("rfqTerms", () => {
  it("asks for the request's swap, settled up to 60 s after the quote expires, with the fees' tokens", () => {
    const terms = rfqTerms(corridor, input, "rfq_1", "q_1", 1_000_999, gas, fee);
    expect(terms).toEqual({
      corridor: corridor.key,
      rfqId: "rfq_1",
      quoteId: "q_1",
      chain: corridor.chain,
      taker: TAKER,
      recipient: TAKER,
      sellToken: CNGN,
      buyToken: USDC,
      sellAmount: 1_580_000_000n,
      slippageBps: 0,
      deadline: 1_000 + 60,
      gasFeeToken: CNGN,
      fee,
    });
  });

  it("carries a limit order's round only in a limit round", () => {
    const limit = { limitOrderId: "lo_1", order: {}, nonce: "1", minOut: "900", limitAmount: "1000" };
    expect(rfqTerms(corridor, { ...input, limit }, "r", "q", 0, gas, fee).limit).toEqual(limit);
    expect("limit" in rfqTerms(corridor, input, "r", "q", 0, gas, fee)).toBe(false);
  });
});
