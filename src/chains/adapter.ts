import type { QuoteAmounts } from "../auction/amounts";
import type { ChainConfig } from "../config/schema";

/** What an auction knows of the swap before any bid: the terms every resolver is asked to price. */
export interface RfqTerms {
  quoteId: string;
  chain: ChainConfig;
  taker: string;
  recipient: string;
  sellToken: string;
  buyToken: string;
  sellAmount: bigint;
  /** Unix seconds: the fill must settle before it. */
  deadline: number;
  gasFeeToken: string;
}

/** A resolver's bid signature request, JSON-ready: `message.outputAmount` is left null for the resolver. */
export interface ToSign {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * The chain-specific parts of a quote. Routes and Durable Objects use this, never viem or web3.js
 * directly, so EVM and Solana corridors run the same auction.
 */
export interface ChainAdapter {
  /** What the resolver signs for its bid to be settleable. */
  bidToSign(terms: RfqTerms): ToSign;
  /** Whether `signature` is `resolver`'s over the bid's commitment with `outputAmount`. */
  verifyBid(terms: RfqTerms, outputAmount: bigint, resolver: string, signature: string): Promise<boolean>;
  /** What the taker signs for the winning bid, JSON-ready (returned with the quote and kept for settlement). */
  takerSigning(terms: RfqTerms, winner: { resolver: string; amounts: QuoteAmounts }): Record<string, unknown>;
  /** Whether two addresses of this chain are the same. */
  sameAddress(a: string, b: string): boolean;
}
