import { log } from "../log";
import type { Erc2612Permit } from "../schemas";
import type { NonceStore } from "./nonce-store";

/**
 * The settlement half of a chain (docs/settlement.md, "The settler"): what the keeper asks of a chain
 * about one submission, from the taker's readiness to the finality of its transaction. The keeper uses
 * only this, never viem or web3.js, and never the chain's kind.
 */

/** What the keeper settles: a stored quote's terms, what the taker signed, and what the taker sent. */
export interface FillRequest {
  quoteId: string;
  taker: string;
  sellToken: string;
  buyToken: string;
  /** The token the keeper's gas fee is charged in. */
  gasFeeToken: string;
  /**
   * The token the protocol fee is charged in (the quote's `fee.token`); absent from requests stored
   * before it was recorded, which were all charged in the buy token.
   */
  feeToken?: string;
  takerPays: string;
  /** The quote's `signing` JSON as the auction stored it. */
  signing: unknown;
  /** The taker's part: its signature (EVM) or the quote's transaction with its signature (Solana, base64). */
  signature: string;
  permit: Erc2612Permit | null;
}

/** A transaction to the settlement contract, chain-encoded; opaque to the keeper. */
export interface FillCall {
  to: string;
  data: string;
}

/**
 * Whether what the taker sent is its authorisation of the quote; if not, the 400 answer: `bad_signature`
 * (EVM: not the taker's signature over the typed data, or, for a taker whose address has code, one its
 * code refuses) or `bad_transaction` (Solana: not the quote's transaction signed by the taker, `reason`
 * saying what differs). `rule`: the part of the strict signature rule the signature breaks, when that is
 * why (docs/api.md, "Signatures").
 */
export type TakerCheck =
  | { ok: true }
  | { ok: false; code: "bad_signature" | "bad_transaction"; reason: string; rule?: string };

/** Whether the taker's side can be pulled now; if not, why (400 `taker_not_ready` with `reason`, `detail`). */
export type Readiness = { ready: true } | { ready: false; reason: string; detail: string };

/**
 * A fill's readiness, read on chain before simulating: as `Readiness`, or a requote whose reason is the
 * taker's own doing (a used nonce, a short balance), which leaves the quote open and strikes nobody
 * (docs/reliability.md, "Blame").
 */
export type FillReadiness = Readiness | { ready: false; requote: string };

/**
 * What a simulated revert means for the submission: a requote (the reason says who must act), a taker
 * signature the contracts refuse (400 `bad_signature`), or a keeper the contract does not accept, which
 * no taker or resolver can fix (503 `not_leader`).
 */
export type RevertOutcome =
  | {
      kind: "requote";
      reason: string;
      /**
       * How much the resolver's balance fell short of its leg, where the token's error says (EVM's
       * `ERC20InsufficientBalance`): the keeper's evidence of whose doing that was (src/keeper/spent-by-relay.ts).
       */
      shortfall?: bigint;
      /**
       * The resolver whose leg the chain names (EVM: `ResolverLegFailed`, `InvalidResolverSignature`), when it
       * names one: in a fill of several makers, the one leg's resolver to blame (docs/legs.md).
       */
      resolver?: string;
    }
  | { kind: "bad_signature" }
  | { kind: "keeper_refused"; reason: "keeper_not_allowed" | "keeper_insufficient_funds" };

/** A fill built and simulated: the call to sign and the gas it needs. */
export interface PreparedFill {
  call: FillCall;
  gas: bigint;
}

export type Preparation = { kind: "prepared"; fill: PreparedFill } | RevertOutcome;

/**
 * A fill checked on chain before it is signed: the taker's side first (`not_ready`, 400 `taker_not_ready`;
 * a requote when the taker's own doing stops it), then its simulation from the keeper's wallet.
 */
export type Preflight = { kind: "not_ready"; reason: string; detail: string } | Preparation;

/**
 * A submission checked on chain, both begun at once (docs/settlement.md, "The fast path"): the taker's
 * authorisation, as the chain's verifier will judge it, and the fill's preflight. On EVM both come from
 * one batch: whether the taker's address has code decides how Permit2 checks its signature.
 */
export interface SubmissionChecks {
  taker: Promise<TakerCheck>;
  fill: Promise<Preflight>;
}

/** What a readiness read means for the preflight: null when ready, else its answer. */
export function notReady(readiness: FillReadiness): Preflight | null {
  if (readiness.ready) return null;
  if ("requote" in readiness) return { kind: "requote", reason: readiness.requote };
  return { kind: "not_ready", reason: readiness.reason, detail: readiness.detail };
}

/** A transaction the keeper signed, as it is kept: enough to broadcast it again and to read its fate. */
export interface SignedFill {
  /** Its id on the chain: the 0x hash on EVM, the fee payer's base58 signature on Solana. */
  hash: string;
  raw: string;
  /** The keeper account's nonce on a chain that orders an account's transactions by one (EVM); 0 elsewhere. */
  nonce: number;
  call: FillCall;
  request: FillRequest;
}

/**
 * What the network said to a broadcast: accepted it, already had it, refused it (nothing was sent), or
 * did not answer (it may or may not have the transaction).
 */
export type BroadcastResult =
  | { status: "accepted" }
  | { status: "known" }
  | { status: "refused"; reason: string }
  | { status: "unreachable"; reason: string };

/** One settlement event of the settlement contract, as the indexer reads it. */
export interface FillEvent {
  orderHash: string;
  /** The relay's quote id (`q_…`) the fill settles. */
  quoteId: string;
  resolver: string;
  filler: string;
  taker: string;
  sellToken: string;
  sellAmount: bigint;
  buyToken: string;
  outputAmount: bigint;
  received: bigint;
  fee: bigint;
  gasFee: bigint;
  logIndex: number;
  /**
   * The relay's resolver that filled it, where the chain names another key of it (a Solana maker's key of a
   * swap of several makers, docs/legs.md); absent, `resolver` is it.
   */
  node?: string;
}

export interface TxReceipt {
  hash: string;
  status: "success" | "reverted";
  /** The block number (EVM) or slot (Solana) it landed in. */
  block: number;
  /** ISO 8601, from the chain's time of the block; null when the node does not know it (never the relay's clock). */
  blockTime: string | null;
  /** Gas on EVM, compute units on Solana; null when the node does not report them. */
  gasUsed: bigint | null;
  /**
   * What the keeper paid for it in native units (docs/settlement.md, "The keeper's books"): gas used ×
   * effective gas price in wei; the fee and the rent of the accounts it created in lamports.
   */
  keeperSpent: bigint;
  from: string;
  fills: FillEvent[];
}

/**
 * Where a sent transaction stands: still on its way (a transaction the network lost is sent again, the
 * same bytes), landed with its fills, dropped (another transaction took its place), or reverted.
 */
export type TxStatus =
  | { state: "pending" }
  | { state: "landed"; receipt: TxReceipt }
  | { state: "dropped" }
  | {
      state: "reverted";
      reason: string;
      gasUsed: bigint | null;
      /** A short resolver's shortfall, where the replay's token error says it (`RevertOutcome`). */
      shortfall?: bigint;
      /** The resolver whose leg the replay's error names (`RevertOutcome`), of a fill of several makers. */
      resolver?: string;
    };

/** A settler's log line, in the keeper's structured log (docs/settlement.md). */
export const settlerLog = (event: string, detail: Record<string, unknown>) =>
  log.error(event, { component: "keeper", ...detail });

/** The RPC did not answer (network error, timeout, 5xx): nothing can be concluded from it. */
export class ChainUnavailableError extends Error {
  override readonly name = "ChainUnavailableError";
}

/**
 * Settlement on one chain with one keeper key: one wallet of the keeper's pool there. Every method that
 * reads the chain throws `ChainUnavailableError` when it does not answer; `broadcast` never throws.
 */
export interface ChainSettler {
  readonly chainId: number;
  /** The keeper's address on this chain: the submitter of every fill. */
  readonly keeper: string;
  /**
   * Whether what the taker sent authorises what the quote asked it to sign (`taker`), and whether the chain
   * will let the fill take the taker's side (`now` in unix seconds), then the fill built and simulated from
   * the keeper (`fill`), in as few round trips as the chain allows (docs/settlement.md, "The fast path").
   */
  preflight(request: FillRequest, now: number): SubmissionChecks;
  /**
   * Gets what signing needs from the chain (EVM: the wallet's next nonce and the chain's fees) before
   * the wallet's lock, so `sign` reads nothing (docs/settlement.md, "The fast path"). Waits only for
   * what is missing or too old; fresh data is refreshed in the background.
   */
  ready(): Promise<void>;
  /**
   * Signs a prepared fill with the keeper's next nonce, which the settler chooses and stores; `record`
   * runs in the same storage transaction, so the transaction is kept before anyone can broadcast it.
   * After `ready`, it reads nothing from the chain.
   */
  sign(request: FillRequest, fill: PreparedFill, record: (tx: SignedFill) => void): Promise<SignedFill>;
  /**
   * Frees the nonce of a transaction the network refused; `forget` runs in the same storage transaction.
   * When a later transaction of the wallet waits on that nonce, a filler takes it instead, kept and
   * broadcast (docs/settlement.md, "Nonce gaps"). Callers hold the wallet's lock.
   */
  release(tx: SignedFill, forget: () => void): Promise<void>;
  /** Broadcasts again each filler the chain has not mined yet, and forgets those it has. */
  fillGaps(): Promise<void>;
  /**
   * Whether a filler of the wallet did not get through at its last send (refused, or no answer): the
   * wallet's later transactions wait behind it, so it takes no new submission until one does.
   */
  gapOpen(): boolean;
  broadcast(tx: SignedFill): Promise<BroadcastResult>;
  /** Gets a transaction whose broadcast was never confirmed onto the network: found there, or sent again. */
  recover(tx: SignedFill): Promise<BroadcastResult>;
  /**
   * Where each of `txs` stands, for the indexer's pass: the reads every one of them needs, in as few round
   * trips as the chain allows (EVM: one batch of receipts, one of their blocks; Solana: one status call),
   * then, for each, what is left of its own when it is asked for (a revert's reason, a lost transaction
   * sent again). A chain that does not answer the shared reads throws `ChainUnavailableError` at once.
   */
  statuses(txs: readonly SignedFill[]): Promise<(() => Promise<TxStatus>)[]>;
  /**
   * When a sent transaction that is not mined is replaced by the same call with the same nonce at a
   * higher fee (docs/settlement.md, "Stuck transactions"); null on a chain that does not replace (Solana:
   * a transaction that does not land expires with its blockhash and is failed as dropped).
   */
  readonly replacement: { afterMs: number; maxBumps: number } | null;
  /** Signs `tx`'s replacement: the same call and nonce, its fees raised. No nonce moves. */
  replace(tx: SignedFill): Promise<SignedFill>;
  /** The block finality is counted against: the latest block on EVM, the latest `finalized` slot on Solana. */
  head(): Promise<number>;
  /** Whether a transaction landed in `block` is final with the chain at `head`. */
  isFinal(block: number, head: number): boolean;
}

/**
 * How a chain settles, before any key (`settlerFor`, src/chains/index.ts): which body field carries the
 * taker's part of a submission, which secret holds the keeper's keys, and a settler for each key. Not the
 * quote record's `settlement` (src/schemas/quote.ts), which is what a settled transaction did.
 */
/**
 * A bid that fills a faded quote (docs/settlement.md, "When the winner fades"): a whole bid (`sellAmount`
 * null), or a part that is one leg of several makers' fill (docs/legs.md).
 */
export interface FillingBid {
  resolver: string;
  sellAmount: string | null;
  outputAmount: string;
  signature: string;
}

export interface SettlementScheme {
  /** The Worker secret holding the keeper's key on this chain (docs/settlement.md). */
  readonly secretName: "KEEPER_PRIVATE_KEY" | "KEEPER_SOLANA_KEY";
  /** The body field of `POST /v1/executions` that carries the taker's part on this chain. */
  readonly submissionField: "signature" | "transaction";
  /** Why that field is required, for the `invalid_request` issue when it is missing. */
  readonly submissionHint: string;
  /**
   * A quote's stored signing with other offers' bids in place of its winner's or its legs', when one fades
   * (docs/settlement.md, "When the winner fades"): one whole bid, or several parts as legs; null where the taker signed who pays it (Solana: its
   * transaction names the resolver) or the quote is a limit order's round.
   */
  withBid(signing: unknown, bids: readonly FillingBid[]): unknown | null;
  /**
   * The keeper's wallets on this chain, one settler per key the secret holds (in its order; one key is a
   * pool of one); null when the secret is not a key (or list of keys) of this chain.
   */
  withKeys(secret: string | undefined, nonces: NonceStore): readonly ChainSettler[] | null;
}
