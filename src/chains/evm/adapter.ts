import type { Address, Hex, TypedDataDomain } from "viem";
import type { EvmChain } from "../../config";
import type { ChainAdapter, RfqTerms, SignedBid, Winner } from "../adapter";
import { minReceivedOf } from "../adapter";
import { addressFacts } from "../address-rules";
import { evmAddressRules } from "./address";
import { verifyEachWithKey } from "./ecdsa";
import { type LimitFill, limitAuthOf, limitFillTypedData } from "./limit-typed-data";
import { verifyPersonalMessage } from "./messages";
import {
  fillTypedData,
  PERMIT2_DOMAIN_TYPE,
  quoteIdToBytes32,
  quoteNonce,
  type RfqFill,
  takerTypedData,
  withBigintsAsStrings,
} from "./typed-data";
import { digestsByAmount } from "./typed-data-digest";

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

/** A resolver's EIP-712 fill, as the rfq's `toSign` spells it. */
interface BidTypedData {
  domain: TypedDataDomain;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: object;
}

/**
 * What a resolver signs to fill at `outputAmount`: an `RfqFill` for the executor, or, in a limit
 * order's round, a `LimitFill` of the signed order for the reactor (docs/contracts.md).
 */
function bidTypedData(chain: EvmChain, terms: RfqTerms, outputAmount: bigint): BidTypedData {
  if (!terms.limit) {
    const executor = chain.executor as Address;
    return fillTypedData({ chainId: chain.chainId, executor, fill: fillOf(terms, outputAmount) });
  }
  const fill: LimitFill = {
    quoteId: quoteIdToBytes32(terms.quoteId),
    order: limitAuthOf(terms.limit.order),
    nonce: BigInt(terms.limit.nonce),
    outputAmount,
    deadline: BigInt(terms.deadline),
  };
  return limitFillTypedData({ chainId: chain.chainId, reactor: chain.reactor as Address, fill });
}

/** An EVM chain: Permit2 witness orders signed by the taker, EIP-712 fills signed by resolvers. */
export function evmAdapter(chain: EvmChain): ChainAdapter {
  const fill = (terms: RfqTerms, outputAmount: bigint) => bidTypedData(chain, terms, outputAmount);
  // One auction's terms, the digest of each of its bids by amount: built on its first bid.
  const bidDigests = new WeakMap<RfqTerms, (outputAmount: bigint) => Hex>();
  const bidDigest = (terms: RfqTerms, outputAmount: bigint, sellAmount?: bigint) => {
    // A part signs its own sell amount in the rfq's place: its digest is built for it alone.
    if (sellAmount !== undefined && sellAmount !== terms.sellAmount) {
      return digestsByAmount(fill({ ...terms, sellAmount }, 0n), "outputAmount")(outputAmount);
    }
    let digests = bidDigests.get(terms);
    if (!digests) {
      digests = digestsByAmount(fill(terms, 0n), "outputAmount");
      bidDigests.set(terms, digests);
    }
    return digests(outputAmount);
  };
  const signedHashes = (terms: RfqTerms, bids: readonly SignedBid[]) =>
    bids.map((b) => ({
      hash: bidDigest(terms, b.outputAmount, b.sellAmount),
      signature: b.signature as Hex,
      publicKey: b.keys.publicKey as Hex,
    }));
  // Checked together, an auction's bids share the ECDSA check's inversions (src/chains/evm/ecdsa.ts); a
  // winner's key gets a table kept for its next checks, the others' are checked without building one.
  const verifyBids = (terms: RfqTerms, bids: readonly SignedBid[]): boolean[] =>
    verifyEachWithKey(signedHashes(terms, bids), false);
  return {
    ...addressFacts("evm", evmAddressRules, chain.tokens),
    chain,
    // The executor charges the fee on the output: always the buy token.
    feeTokens: [],
    verifyMessage: (signer, text, signature) => verifyPersonalMessage(chain, signer, text, signature),
    // Hex is read in either case; the strict rule leaves no other freedom (65 bytes, v 27/28, low s).
    signatureKey: (signature) => signature.toLowerCase(),
    bidKey: (keys) => keys.publicKey,
    quotedWinnerKey: () => null,

    bidToSign(terms) {
      const typed = fill(terms, 0n);
      const message = withBigintsAsStrings(typed.message) as Record<string, unknown>;
      return {
        scheme: "eip712",
        domain: typed.domain as unknown as Record<string, unknown>,
        types: typed.types as unknown as Record<string, { name: string; type: string }[]>,
        primaryType: typed.primaryType,
        message: { ...message, outputAmount: null },
      };
    },

    // The executor fills up to MAX_LEGS resolvers' parts in one transaction (docs/contracts.md).
    parts: true,
    verifyBid: (terms, outputAmount, keys, signature, sellAmount) =>
      verifyEachWithKey(signedHashes(terms, [{ outputAmount, keys, signature, sellAmount }]))[0] === true,
    verifyBids,

    signing: {
      kind: "taker",
      takerSigning: (terms, winner) => takerSigning(chain, terms, winner),
      kept: keptSigning,
    },
  };
}

/**
 * What a quote's row keeps of what the taker signs: of the typed data only its message, which is all the
 * keeper reads (src/chains/evm/stored-signing.ts); its domain and types are the chain's and the contract's
 * constants, 900 bytes a quote. A limit round's signing has no typed data and is kept whole.
 */
function keptSigning(signing: Record<string, unknown>): Record<string, unknown> {
  const typed = signing.typedData as { message?: unknown } | undefined;
  return typed?.message === undefined ? signing : { ...signing, typedData: { message: typed.message } };
}

/** What the taker signs on EVM: the Permit2 witness order of the winning bid, as eth_signTypedData_v4 takes it. */
function takerSigning(chain: EvmChain, terms: RfqTerms, winner: Winner): Record<string, unknown> {
  // A limit order's taker signed the order when placing it: the round's quote keeps the order, the
  // winner and the gas fee charged, which the reactor's `executeLimit` takes (src/chains/evm/limit-call.ts).
  if (terms.limit) {
    const { limitOrderId, order, nonce } = terms.limit;
    return {
      limit: { limitOrderId, order, nonce },
      resolver: winner.resolver,
      gasFee: winner.amounts.gasFee.toString(),
    };
  }
  const executor = chain.executor as Address;
  const { amounts } = winner;
  const typedData = takerTypedData({
    chainId: chain.chainId,
    permit2: chain.permit2 as Address,
    executor,
    sellToken: terms.sellToken as Address,
    takerPays: amounts.takerPays,
    nonce: quoteNonce(terms.quoteId),
    deadline: BigInt(terms.deadline),
    // What the taker gives and gets at least, not who pays it: the keeper may fill it with the next bid
    // when the winner fades (docs/settlement.md, "When the winner fades").
    order: {
      quoteId: quoteIdToBytes32(terms.quoteId),
      recipient: terms.recipient as Address,
      buyToken: terms.buyToken as Address,
      minReceived: minReceivedOf(amounts.received, terms.slippageBps ?? 0),
      gasFeeToken: terms.gasFeeToken as Address,
      gasFee: amounts.gasFee,
      deadline: BigInt(terms.deadline),
    },
  });
  // Wallets' eth_signTypedData_v4 hashes the domain by the EIP712Domain type it is given, so it is spelled out.
  const types = { EIP712Domain: PERMIT2_DOMAIN_TYPE, ...typedData.types };
  return { typedData: withBigintsAsStrings({ ...typedData, types }) as Record<string, unknown> };
}
