import { type Address, getAddress, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { quoteIdToBytes32, quoteNonce, takerTypedData } from "../../src/chains/evm/typed-data";
import type { SignableQuote } from "../../src/clients/taker/relay";
import { QuoteMismatchError, quotePermit2, quoteTypedData, signQuote } from "../../src/clients/taker/sign";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { takerSigningOf } from "../support/taker-signing";

const chain = primaryEvmChain(localConfig);
if (chain?.kind !== "evm") throw new Error("the local configuration starts with its EVM chain");
const [cngn, usdc] = chain.tokens.map((t) => getAddress(t.address)) as [Address, Address];
const taker = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
const resolver: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const quoteId = "q_0123456789abcdef0123456789abcdef";
const deadline = 1_900_000_000;
const amounts = {
  outputAmount: 1_000_140n,
  fee: 1_000n,
  gasFee: 50_000n,
  received: 949_140n,
  takerPays: 1_580_000_000n,
  proceeds: 1_580_000_000n,
};

/** A quote as `POST /v1/quotes` answers it: the record's fields that matter here, and the adapter's typedData through JSON. */
function wireQuote(): SignableQuote {
  const adapter = evmAdapter(chain);
  const { typedData } = takerSigningOf(adapter)(
    {
      corridor: "",
      rfqId: "rfq_unused",
      quoteId,
      chain,
      taker: taker.address,
      recipient: taker.address,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: 1_580_000_000n,
      deadline,
      gasFeeToken: usdc,
      slippageBps: 100,
      fee: { token: usdc, bps: chain.fee.bps, side: "buy" },
    },
    { resolver, amounts },
  ) as { typedData: Record<string, unknown> };
  return JSON.parse(
    JSON.stringify({
      quoteId,
      chainId: 31337,
      taker: taker.address,
      recipient: taker.address,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "1580000000",
      received: "949140",
      // 1 % under `received`, rounded down.
      minReceived: "939648",
      takerPays: "1580000000",
      resolver: { address: resolver, name: "alpha", solanaAddress: null },
      typedData,
    }),
  );
}

describe("signing a quote as a taker", () => {
  it("signs exactly the Permit2 transfer the executor verifies", async () => {
    const signature = await signQuote(taker, wireQuote());
    const direct = await taker.signTypedData(
      takerTypedData({
        chainId: 31337,
        permit2: chain.permit2 as Address,
        executor: chain.executor as Address,
        sellToken: cngn,
        takerPays: amounts.takerPays,
        nonce: quoteNonce(quoteId),
        deadline: BigInt(deadline),
        order: {
          quoteId: quoteIdToBytes32(quoteId),
          recipient: taker.address,
          buyToken: usdc,
          minReceived: 939_648n,
          gasFeeToken: usdc,
          gasFee: amounts.gasFee,
          deadline: BigInt(deadline),
        },
      }),
    );
    expect(signature).toBe(direct);
    expect(await recoverTypedDataAddress({ ...quoteTypedData(wireQuote()), signature })).toBe(taker.address);
  });

  it("names the Permit2 contract of the quote's domain", () => {
    expect(quotePermit2(wireQuote())).toBe(getAddress(chain.permit2));
  });

  it("refuses typed data that does not say what the quote record says", async () => {
    const richer = { ...wireQuote(), minReceived: "949140" };
    expect(() => quoteTypedData(richer)).toThrow(QuoteMismatchError);
    expect(() => quoteTypedData(richer)).toThrow(/witness.minReceived/);
    // A witness that names a resolver is not the one the executor verifies.
    const named = wireQuote();
    const typed = named.typedData as { types: { RfqOrder: unknown[] }; message: { witness: Record<string, unknown> } };
    typed.types.RfqOrder = [...typed.types.RfqOrder, { name: "resolver", type: "address" }];
    typed.message.witness = { ...typed.message.witness, resolver };
    await expect(signQuote(taker, named)).rejects.toThrow(/types.RfqOrder/);
    expect(() => quoteTypedData({ ...wireQuote(), typedData: { primaryType: "x" } })).toThrow(/not EIP-712/);
  });
});
