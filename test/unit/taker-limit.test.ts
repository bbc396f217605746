import { type Address, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { type LimitAuth, limitPermitAmount, limitTakerTypedData } from "../../src/chains/evm/limit-typed-data";
import { withBigintsAsStrings } from "../../src/chains/evm/typed-data";
import type { LimitOrderDraft, LimitOrderPrepareRequest } from "../../src/clients/taker/api";
import { limitTypedData, signLimitDraft } from "../../src/clients/taker/limit";
import { QuoteMismatchError } from "../../src/clients/taker/sign";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";

const chain = primaryEvmChain(localConfig);
const taker = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbac7f7fa5c");
const cngn = chain.tokens[0]?.address as Address;
const usdc = chain.tokens[1]?.address as Address;

const asked: LimitOrderPrepareRequest = {
  sellToken: cngn,
  buyToken: usdc,
  sellAmount: "1580000000",
  limitAmount: "1000000",
  taker: taker.address,
  expiresInSeconds: 3_600,
};

/** A draft as the relay would answer it: the order's typed data through JSON, as it travels. */
function draftOf(over: Partial<LimitAuth> = {}): LimitOrderDraft {
  const order: LimitAuth = {
    taker: taker.address,
    recipient: taker.address,
    sellToken: cngn,
    buyToken: usdc,
    sellAmount: 1_580_000_000n,
    minOut: 849_000n,
    gasFeeToken: usdc,
    maxGasFee: 150_000n,
    deadline: 1_900_000_000n,
    ...over,
  };
  const typed = limitTakerTypedData({
    chainId: chain.chainId,
    permit2: chain.permit2 as Address,
    reactor: chain.reactor as Address,
    nonce: 42n,
    order,
  });
  const EIP712Domain = [
    { name: "name", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ];
  return {
    chainId: chain.chainId,
    executor: chain.reactor,
    permit2: chain.permit2,
    draft: {
      minOut: "849000",
      gasFeeToken: usdc,
      maxGasFee: "150000",
      permitAmount: limitPermitAmount(order).toString(),
      nonce: "42",
      deadline: "1900000000",
    },
    typedData: withBigintsAsStrings({ ...typed, types: { EIP712Domain, ...typed.types } }) as Record<string, unknown>,
    fee: { token: usdc, bps: 10, atLimit: "1000" },
    gasFeeNow: "50000",
    expiresAt: new Date(1_900_000_000_000).toISOString(),
  };
}

describe("the taker library's limit orders", () => {
  it("signs a draft that says what was asked, with a signature over the order's Permit2 transfer", async () => {
    const draft = draftOf();
    const signature = await signLimitDraft(taker, asked, draft);
    const signer = await recoverTypedDataAddress({ ...limitTypedData(asked, draft), signature });
    expect(signer).toBe(taker.address);
  });

  it.each([
    ["witness.sellAmount", { sellAmount: 1_580_000_001n }],
    ["witness.recipient", { recipient: usdc }],
    ["witness.minOut", { minOut: 1n }],
    ["witness.buyToken", { buyToken: cngn }],
  ] as const)("refuses a draft whose %s differs", (field, over) => {
    expect(() => limitTypedData(asked, draftOf(over))).toThrow(
      new QuoteMismatchError(`the limit order draft's typedData: ${field} differs from what was asked`),
    );
  });
});
