import type { QuoteAmounts } from "../auction/amounts";
import type { ChainConfig } from "../config/schema";
import type { BidCommitment } from "../protocol/frames";
import type { ChainKind } from "./addresses";

/** What an auction knows of the swap before any bid: the terms every resolver is asked to price. */
export interface RfqTerms {
  /** The canonical corridor key (src/corridors.ts). */
  corridor: string;
  rfqId: string;
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

/** The keys a node proved at auth: its EVM key always, a Solana key when it offered one. */
export interface ProvedKeys {
  address: string;
  /** Uncompressed secp256k1 key (0x04…), recovered from the auth signature. */
  publicKey: string;
  /** Base58 ed25519 key, or null when the node proved none. */
  solanaAddress: string | null;
}

/** The winner of an auction, with the amounts of its quote. */
export interface Winner {
  resolver: string;
  amounts: QuoteAmounts;
}

/**
 * A chain whose quote needs the winner's signature once the auction is decided (Solana: the winner
 * signs the settlement transaction the relay built, docs/resolver-protocol.md, "sign"). The auction
 * sends `sign` to the winner and falls to the next bid when the answer is late or does not verify.
 */
export interface WinnerSignature {
  /** What the winner is asked to sign (the `sign` frame's `transaction`). */
  request(terms: RfqTerms, winner: Winner): string;
  /** Whether `signature` is the winner's (its proved key) over `request`. */
  verify(request: string, keys: ProvedKeys, signature: string): boolean;
}

/**
 * Everything about a chain that differs between chain kinds, for one configured chain
 * (docs/architecture.md). Routes, the auction and the Durable Objects use this, never viem or
 * web3.js, and never branch on `kind`.
 */
export interface ChainAdapter {
  readonly kind: ChainKind;
  readonly chain: ChainConfig;
  /** Whether `value` is an address of this chain. */
  isAddress(value: string): boolean;
  /** What an address of this chain looks like, for error messages. */
  readonly addressDescription: string;
  /** Whether two addresses of this chain are the same (EVM: case-insensitive; Solana: exact). */
  sameAddress(a: string, b: string): boolean;
  /** The form an address is keyed in (EVM: lowercase; Solana: as it is). */
  normalise(address: string): string;
  /** The configured token with this address, if any. */
  token(address: string): ChainConfig["tokens"][number] | null;
  /** Whether `signature` is `signer`'s over the UTF-8 `text` (EIP-191 on EVM, ed25519 on Solana). */
  verifyMessage(signer: string, text: string, signature: string): Promise<boolean>;
  /** The key a node's bids are verified against on this chain, or null when it proved none (not asked). */
  bidKey(keys: ProvedKeys): string | null;
  /** What a resolver signs for its bid to be settleable, with `outputAmount` left for it to fill in. */
  bidToSign(terms: RfqTerms): BidCommitment;
  /** Whether `signature` is by the node's proved key over the bid's commitment with `outputAmount`. */
  verifyBid(terms: RfqTerms, outputAmount: bigint, keys: ProvedKeys, signature: string): boolean;
  /**
   * What the taker signs for the winning bid, JSON-ready (returned with the quote and kept for
   * settlement); null on a chain whose quotes the relay cannot settle yet.
   */
  takerSigning: ((terms: RfqTerms, winner: Winner) => Record<string, unknown>) | null;
  /** Present on chains where the winner signs after the auction. */
  winnerSignature?: WinnerSignature;
}
