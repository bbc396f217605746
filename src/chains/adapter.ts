import type { BidCommitment } from "../protocol";
import type { LimitRound, QuoteAmounts } from "../types";
import type { FeeCharge } from "./fee-charge";
import type { ChainConfig, ChainKindName } from "./kinds";

/** What an auction knows of the swap before any bid: the terms every resolver is asked to price. */
export interface RfqTerms {
  /** The canonical corridor key (src/chains/corridor-keys.ts). */
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
  /** The taker's tolerance below `received`, in basis points: the quote's `minReceived` (`minReceivedOf` below); 0 when absent. */
  slippageBps?: number;
  /** The protocol fee: its token, bps and side (`feeChargeFor`, src/chains/fee-charge.ts). */
  fee: FeeCharge;
  /** A limit order's round: bids commit to fill the signed order instead of an RFQ quote. */
  limit?: LimitRound;
}

/**
 * The keys a node proved at auth: its identity's secp256k1 key always, and an ed25519 key when it offered
 * one, for the chain kinds whose accounts are not the node's identity (which kind reads which key is the
 * kind's own: `bidKey`, `quotedWinnerKey`).
 */
export interface ProvedKeys {
  address: string;
  /** Uncompressed secp256k1 key (0x04…), recovered from the auth signature. */
  publicKey: string;
  /** Base58 ed25519 public key, or null when the node proved none. */
  ed25519Key: string | null;
}

/** A bid to check: its amount, the keys its node proved, and its signature. */
export interface SignedBid {
  outputAmount: bigint;
  keys: ProvedKeys;
  signature: string;
  /** The part of the rfq's sell amount it fills, signed in place of the whole (docs/legs.md); absent: the whole. */
  sellAmount?: bigint;
}

/** The winner of an auction, with the amounts of its quote. */
export interface Winner {
  resolver: string;
  amounts: QuoteAmounts;
  /** A fill of several makers (docs/legs.md): each leg's resolver, the keys it proved, its part and its output. */
  legs?: readonly WinnerLeg[];
}

/** One leg of a fill of several makers, as a transaction the makers sign is built from it. */
export interface WinnerLeg {
  resolver: string;
  keys: ProvedKeys;
  sellAmount: bigint;
  outputAmount: bigint;
}

/** A resolver's signature of a sign request, with the keys it proved. */
export interface LegSignature {
  keys: ProvedKeys;
  signature: string;
}

/** What the winner of an auction is asked to sign, with the facts about it the quote keeps. */
export interface SignRequest {
  /** The `sign` frame's `transaction`. */
  transaction: string;
  /** What the taker and the keeper need to know of it besides (Solana: `lastValidBlockHeight`). */
  facts: Record<string, unknown>;
}

/**
 * How the winning bid becomes what the taker signs (docs/architecture.md, "Quote signing"):
 * - `taker`: the bid's signature already authorises the resolver's side (EVM: the executor checks it), so
 *   what the taker signs is built at once;
 * - `winner`: the winner signs the settlement transaction the relay builds (Solana,
 *   docs/resolver-protocol.md, "Signing after the auction"); the auction sends `sign` and falls to the
 *   next bid when the answer is late or does not verify. Building it needs chain state the corridor keeps
 *   fresh in the background (`keepFresh`), never read on a quote's path.
 */
export type QuoteSigning =
  | {
      kind: "taker";
      /** What the taker signs for the winning bid, JSON-ready (returned with the quote, kept for settlement). */
      takerSigning(terms: RfqTerms, winner: Winner): Record<string, unknown>;
      /**
       * What of `takerSigning`'s answer the quote's row keeps for settlement; all of it when absent. D1
       * holds every quote for hours (docs/capacity.md, "Storage"), so what settlement never reads is not kept.
       */
      kept?(signing: Record<string, unknown>): Record<string, unknown>;
    }
  | {
      kind: "winner";
      /** Starts a read of the chain state `request` needs, if one is due; settles when it does. */
      keepFresh(now: number): Promise<void>;
      /**
       * What the winner (`keys`) is asked to sign, and with `winner.legs` every leg's resolver too, the same
       * transaction (docs/legs.md); null when the chain state held is too old to build it.
       */
      request(terms: RfqTerms, winner: Winner, keys: ProvedKeys, now: number): SignRequest | null;
      /** Whether `signature` is the winner's (its proved key) over `request`: any one leg's resolver's, in its own place. */
      verify(request: SignRequest, keys: ProvedKeys, signature: string): boolean;
      /**
       * What the taker signs once the winner's signature verified, JSON-ready (as `takerSigning`); `others`:
       * the other legs' resolvers' verified signatures, each put in its place.
       */
      takerSigning(
        request: SignRequest,
        keys: ProvedKeys,
        signature: string,
        others?: readonly LegSignature[],
      ): Record<string, unknown>;
    };

/** What a quote's row keeps of what the taker signs (`kept`), for settlement. */
export function keptForSettlement<T extends Record<string, unknown>>(quoteSigning: QuoteSigning, signing: T): T {
  return quoteSigning.kind === "taker" && quoteSigning.kept ? (quoteSigning.kept(signing) as T) : signing;
}

/**
 * Everything about a chain that differs between chain kinds, for one configured chain
 * (docs/architecture.md). Routes, the auction and the Durable Objects use this, never viem or
 * web3.js, and never branch on `kind`.
 */
export interface ChainAdapter {
  readonly kind: ChainKindName;
  readonly chain: ChainConfig;
  /** Whether `value` is an address of this chain. */
  isAddress(value: string): boolean;
  /** What an address of this chain looks like, for error messages. */
  readonly addressDescription: string;
  /** Whether two addresses of this chain are the same (EVM: case-insensitive; Solana: exact). */
  sameAddress(a: string, b: string): boolean;
  /** The form an address is keyed in (EVM: lowercase; Solana: as it is). */
  normalise(address: string): string;
  /** The form an address is shown in (EVM: EIP-55; Solana: as it is), whatever casing the caller sent. */
  canonical(address: string): string;
  /**
   * The tokens the protocol fee is charged in, in priority order: the first that is a side of the swap,
   * else the buy token (`feeChargeFor`). EVM: none, its contracts charge the fee on the output; Solana:
   * the chain's `fee.tokens`.
   */
  readonly feeTokens: readonly string[];
  /** The configured token with this address, if any. */
  token(address: string): ChainConfig["tokens"][number] | null;
  /** Whether `signature` is `signer`'s over the UTF-8 `text` (EIP-191 on EVM, ed25519 on Solana). */
  verifyMessage(signer: string, text: string, signature: string): Promise<boolean>;
  /**
   * The one spelling of a signature `verifyMessage` accepted, by which it is remembered as used (a taker
   * proof, docs/security.md): EVM lower-case hex, its `s` already the low one the strict rule accepts;
   * Solana base58 of its bytes.
   */
  signatureKey(signature: string): string;
  /** The key a node's bids are verified against on this chain, or null when it proved none (not asked). */
  bidKey(keys: ProvedKeys): string | null;
  /**
   * The key besides its identity that a quote on this chain names for its winner (the quote's resolver,
   * docs/api.md, "Quote"): the proved key that signed the bid and the swap where the chain's accounts are
   * not the node's identity (Solana); null where the identity signs itself (EVM).
   */
  quotedWinnerKey(keys: ProvedKeys): string | null;
  /** What a resolver signs for its bid to be settleable, with `outputAmount` left for it to fill in. */
  bidToSign(terms: RfqTerms): BidCommitment;
  /**
   * Whether a bid may fill a part of the rfq's sell amount, one leg of a fill of several makers
   * (docs/legs.md): the chain's settlement carries several resolvers' legs in one transaction.
   */
  readonly parts: boolean;
  /**
   * Whether `signature` is by the node's proved key over the bid's commitment with `outputAmount`, and with
   * `sellAmount` in place of the rfq's when the bid fills a part.
   */
  verifyBid(terms: RfqTerms, outputAmount: bigint, keys: ProvedKeys, signature: string, sellAmount?: bigint): boolean;
  /**
   * `verifyBid` of each bid of one auction, in order, sharing what the scheme lets checks share. It keeps
   * nothing new per key (a winner's check, `verifyBid`, may), so that bids of any number of keys cost no
   * more each (docs/security.md, "Many keys make each auction seconds of CPU").
   */
  verifyBids(terms: RfqTerms, bids: readonly SignedBid[]): boolean[];
  /** How the winning bid becomes what the taker signs. */
  readonly signing: QuoteSigning;
}

/** Basis points in a whole. */
const BPS = 10_000n;

/**
 * The least the recipient of a quote may get: `received` less the taker's tolerance of `slippageBps`, rounded
 * down (docs/settlement.md, "When the winner fades"). The taker signs it; a bid that pays less cannot fill.
 */
export function minReceivedOf(received: bigint, slippageBps: number): bigint {
  return (received * (BPS - BigInt(slippageBps))) / BPS;
}
