import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { eip712ToSign } from "../../src/chains/evm/json-typed-data";
import { fillTypedData, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import { solanaBidText } from "../../src/chains/solana/adapter";
import { bidTextMismatch, completeBidText, toSignMismatch } from "../../src/clients/resolver/check-rfq";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { OUTPUT_AMOUNT_SLOT, type RfqFrame } from "../../src/protocol/relay-frames";
import { swapQuote } from "../support/solana-swap";

const executor: Address = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707";
const quoteId = "q_0123456789abcdef0123456789abcdef";
const taker: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const sellToken: Address = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const buyToken: Address = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

function rfq(): RfqFrame {
  const typed = fillTypedData({
    chainId: 31337,
    executor,
    fill: {
      quoteId: quoteIdToBytes32(quoteId),
      taker,
      sellToken,
      sellAmount: 5n,
      buyToken,
      outputAmount: 0n,
      deadline: 100n,
    },
  });
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([k, v]) => [k, k === "outputAmount" ? null : String(v)]),
  );
  return {
    type: "rfq",
    rfqId: "r_1",
    quoteId,
    chainId: 31337,
    sellToken: sellToken.toLowerCase(),
    buyToken,
    sellAmount: "5",
    taker,
    recipient: taker,
    deadline: 100,
    fee: { token: buyToken, bps: 10 },
    gasFee: { token: buyToken, amount: "0" },
    band: null,
    toSign: JSON.parse(JSON.stringify({ scheme: "eip712", ...typed, message })),
  };
}

describe("toSignMismatch", () => {
  it("accepts a toSign that describes the rfq, addresses in any case", () => {
    const r = rfq();
    expect(toSignMismatch(r, eip712ToSign(r.toSign), { executor: executor.toLowerCase() })).toBeNull();
  });

  it.each([
    ["domain.chainId", (r: RfqFrame) => ({ ...r, chainId: 1 })],
    ["domain.verifyingContract", (r: RfqFrame) => r, "0x0000000000000000000000000000000000000001"],
    ["quoteId", (r: RfqFrame) => ({ ...r, quoteId: "q_ffffffffffffffffffffffffffffffff" })],
    ["quoteId", (r: RfqFrame) => ({ ...r, quoteId: "nonsense" })],
    ["taker", (r: RfqFrame) => ({ ...r, taker: buyToken })],
    ["sellToken", (r: RfqFrame) => ({ ...r, sellToken: buyToken })],
    ["sellAmount", (r: RfqFrame) => ({ ...r, sellAmount: "6" })],
    ["buyToken", (r: RfqFrame) => ({ ...r, buyToken: sellToken })],
    ["deadline", (r: RfqFrame) => ({ ...r, deadline: 101 })],
  ] as const)("names %s when it differs", (field, change, otherExecutor: string = executor) => {
    const r = rfq();
    expect(toSignMismatch(change(r), eip712ToSign(r.toSign), { executor: otherExecutor })).toBe(field);
  });
});

describe("toSignMismatch in a limit order's round", () => {
  const chain = primaryEvmChain(localConfig);
  const order = {
    taker,
    recipient: taker,
    sellToken,
    buyToken,
    sellAmount: "5",
    minOut: "3",
    gasFeeToken: buyToken,
    maxGasFee: "1",
    deadline: "1900000000",
  };
  /** A limit round's rfq with the toSign the relay's EVM adapter makes for it. */
  function limitRfq(): RfqFrame {
    const limit = { limitOrderId: "lo_1", order, nonce: "9", minOut: "3", limitAmount: "4" };
    const terms = {
      corridor: "",
      rfqId: "r_2",
      quoteId,
      chain,
      taker,
      recipient: taker,
      sellToken,
      buyToken,
      sellAmount: 5n,
      deadline: 100,
      gasFeeToken: buyToken,
      fee: { token: buyToken, bps: chain.fee.bps, side: "buy" as const },
      limit,
    };
    const toSign = evmAdapter(chain).bidToSign(terms);
    return { ...rfq(), toSign, limit: { limitOrderId: "lo_1", minOut: "3", limitAmount: "4" } };
  }
  const contracts = { executor, reactor: chain.reactor };

  it("accepts a LimitFill of the order for the reactor", () => {
    const r = limitRfq();
    expect(toSignMismatch(r, eip712ToSign(r.toSign), contracts)).toBeNull();
  });

  it.each([
    ["domain.verifyingContract", (r: RfqFrame) => r, { executor, reactor: executor }],
    ["minOut", (r: RfqFrame) => ({ ...r, limit: { limitOrderId: "lo_1", minOut: "2", limitAmount: "4" } }), contracts],
    ["sellAmount", (r: RfqFrame) => ({ ...r, sellAmount: "6" }), contracts],
    ["primaryType", (r: RfqFrame) => ({ ...r, limit: undefined }), { executor: chain.reactor }],
  ] as const)("names %s when it differs", (field, change, against) => {
    const r = limitRfq();
    expect(toSignMismatch(change(r), eip712ToSign(r.toSign), against)).toBe(field);
  });
});

describe("bidTextMismatch", () => {
  const { terms } = swapQuote({
    taker: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    sell: "cNGN",
    sellAmount: 5n,
    outputAmount: 1_000_000n,
  });
  const solanaRfq: RfqFrame = { ...rfq(), rfqId: terms.rfqId, quoteId: terms.quoteId, deadline: terms.deadline };
  const relayText = solanaBidText(terms, OUTPUT_AMOUNT_SLOT);

  it("accepts the text the relay's Solana adapter writes, and fills in the amount as the adapter verifies it", () => {
    expect(bidTextMismatch(solanaRfq, relayText, terms.corridor)).toBeNull();
    expect(completeBidText(relayText, 42n)).toBe(solanaBidText(terms, "42"));
  });

  it.each([
    ["corridor", (t: string) => t, "103:x:y"],
    ["rfqId", (t: string) => t.replace(terms.rfqId, "rfq_other")],
    ["quoteId", (t: string) => t.replace(`|${terms.quoteId}|`, "|q_other|")],
    ["outputAmount", (t: string) => t.replace(OUTPUT_AMOUNT_SLOT, "7")],
    ["deadline", (t: string) => t.replace(`|${terms.deadline}`, `|${terms.deadline + 1}`)],
    ["prefix", (t: string) => t.replace("relay-solana-bid", "relay-solana-fill")],
    ["format", (t: string) => `${t}|more`],
  ] as const)("names %s when it differs", (field, change, corridor: string = terms.corridor) => {
    expect(bidTextMismatch(solanaRfq, change(relayText), corridor)).toBe(field);
  });
});
