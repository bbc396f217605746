import { type Address, getAddress, type Hex, hashTypedData } from "viem";
import type { ChainAdapter, RfqTerms } from "../adapter";
import { withBigintsAsStrings } from "../json";
import { verifyWithKey } from "./ecdsa";
import { fillTypedData, quoteIdToBytes32, quoteNonce, type RfqFill, takerTypedData } from "./typed-data";

const PERMIT2_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

function evmChain(terms: RfqTerms) {
  if (terms.chain.kind !== "evm") throw new Error(`chain ${terms.chain.chainId} is not an EVM chain`);
  return terms.chain;
}

function fillOf(terms: RfqTerms, outputAmount: bigint): RfqFill {
  return {
    quoteId: quoteIdToBytes32(terms.quoteId),
    taker: terms.taker as Address,
    sellToken: terms.sellToken as Address,
    sellAmount: terms.sellAmount,
    buyToken: terms.buyToken as Address,
    outputAmount,
    deadline: BigInt(terms.deadline),
  };
}

export const evmAdapter: ChainAdapter = {
  bidToSign(terms) {
    const chain = evmChain(terms);
    const typed = fillTypedData({
      chainId: chain.chainId,
      executor: chain.executor as Address,
      fill: fillOf(terms, 0n),
    });
    const message = withBigintsAsStrings(typed.message) as Record<string, unknown>;
    return {
      domain: typed.domain as unknown as Record<string, unknown>,
      types: typed.types as unknown as Record<string, { name: string; type: string }[]>,
      primaryType: typed.primaryType,
      message: { ...message, outputAmount: null },
    };
  },

  verifyBid(terms, outputAmount, bidder, signature) {
    const chain = evmChain(terms);
    if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || !/^0x04[0-9a-fA-F]{128}$/.test(bidder.publicKey)) return false;
    const hash = hashTypedData(
      fillTypedData({ chainId: chain.chainId, executor: chain.executor as Address, fill: fillOf(terms, outputAmount) }),
    );
    return verifyWithKey(hash, signature as Hex, bidder.publicKey as Hex);
  },

  takerSigning(terms, winner) {
    const chain = evmChain(terms);
    const { amounts } = winner;
    const typedData = takerTypedData({
      chainId: chain.chainId,
      permit2: chain.permit2 as Address,
      executor: chain.executor as Address,
      sellToken: terms.sellToken as Address,
      takerPays: amounts.takerPays,
      nonce: quoteNonce(terms.quoteId),
      deadline: BigInt(terms.deadline),
      order: {
        quoteId: quoteIdToBytes32(terms.quoteId),
        resolver: getAddress(winner.resolver),
        recipient: terms.recipient as Address,
        buyToken: terms.buyToken as Address,
        received: amounts.received,
        fee: amounts.fee,
        gasFeeToken: terms.gasFeeToken as Address,
        gasFee: amounts.gasFee,
        deadline: BigInt(terms.deadline),
      },
    });
    // Wallets' eth_signTypedData_v4 hashes the domain by the EIP712Domain type it is given, so it is spelled out.
    const types = { EIP712Domain: PERMIT2_DOMAIN_TYPE, ...typedData.types };
    return { typedData: withBigintsAsStrings({ ...typedData, types }) as Record<string, unknown> };
  },

  sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
};
