import type { SettlementScheme } from "../chains";
import type { Refusal } from "../errors";
import type { ClientAsk } from "../limits";
import type { Erc2612Permit, ExecutionStatus } from "../schemas";

/**
 * What the Worker and the keeper object say to each other (docs/settlement.md): plain data, so it
 * crosses the RPC boundary as it is. Routes import these types, never the object's class.
 */

/**
 * A submission as the Worker hands it over, its body validated; the keeper reads its quote (and its
 * Idempotency-Key's execution) from D1, in one round trip.
 */
export interface SubmitRequest {
  quoteId: string;
  /** The chain the taker said the quote is on (`wrong_chain` when it is not), if it said. */
  chainId?: number;
  /**
   * The taker's part, by body field: the keeper takes the one the quote's chain names
   * (`SettlementScheme.submissionField`), and refuses the submission without it.
   */
  takerPart: Partial<Record<SettlementScheme["submissionField"], string>>;
  permit: Erc2612Permit | null;
  /** The `minReceived` the taker says its witness signs (EVM); when given it must be the quote's. */
  minReceived?: string;
  idempotencyKey: string | null;
  /** The HTTP request's id, for the keeper's log lines and its chain calls' (docs/operations.md, "Logs"). */
  requestId?: string;
  /** Who sent it, counted by the leader (docs/security.md, "Counts a bypass defeats"); none from the limit job. */
  client?: ClientAsk;
}

/**
 * Where a submission's time went inside the keeper, in milliseconds (`performance.now()`), for a
 * Server-Timing header (docs/settlement.md, "The fast path"): D1, chain RPC before and inside the wallet,
 * the object's storage, and the wait for the wallet. A phase that did not run is 0.
 */
export interface SubmitTimings {
  /** D1: reading the quote (and a repeated Idempotency-Key) in admission. */
  readMs: number;
  /**
   * The taker's signature (or transaction) checked: on EVM until the pre-flight batch answers, since the
   * taker's code decides how it is checked (docs/settlement.md, "Takers with smart wallets"); CPU elsewhere.
   */
  verifyMs: number;
  /** Chain RPC before the wallet: the taker's readiness, the simulation, the gas estimate, nonce and fees. */
  simulateMs: number;
  /** D1: what is left of the quote's claim once the simulation is back (it runs beside it). */
  claimMs: number;
  /** Waiting for the wallet's lock (another submission signing or broadcasting from it). */
  lockMs: number;
  /** Taking the nonce and signing (no RPC once the wallet is warm). */
  signMs: number;
  /** The object's storage: keeping the signed transaction before its broadcast. */
  storageMs: number;
  /** Chain RPC: the broadcast. */
  broadcastMs: number;
  /** D1: recording a requote (a submission's record is written after its answer). */
  writeMs: number;
}

/** What the keeper answers a submission (docs/settlement.md, "Answers"). */
export type SubmitOutcome =
  | { kind: "submitted"; quoteId: string; executionId: string; txHash: string; timings?: SubmitTimings }
  | { kind: "requote"; quoteId: string; executionId: string; reason: string; timings?: SubmitTimings }
  | {
      kind: "duplicate";
      quoteId: string;
      executionId: string;
      status: ExecutionStatus;
      txHash: string | null;
      reason: string | null;
    }
  | Refusal;

/** The keeper object as the Worker calls it. */
export interface KeeperRpc {
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
  /** Writes to D1 now what a submission answered about quote or execution `id`; whether it was still to come. */
  writeThrough(id: string): Promise<boolean>;
}

/**
 * A submission as the leader hands it to the keeper of its quote's chain (docs/architecture.md, "The
 * keeper"), with what the leader decided about it.
 */
export interface RoutedSubmission extends SubmitRequest {
  /**
   * An operator paused the keeper (docs/operations.md, "Pausing"): the submission is refused once its
   * quote is found and it is no repeat, so repeats and unknown quotes are still answered. Absent: not paused.
   */
  paused?: boolean;
  /**
   * The other quotes the leader has taken this Idempotency-Key for, newest first (src/keeper/key-book.ts):
   * one of them the same taker's makes the submission 409 `idempotency_key_reused`, before D1 has heard of
   * it. Absent: none.
   */
  keyTakenWith?: string[];
}

/** What a chain's keeper holds, for the leader's record (`KeeperRecord`). */
export interface ChainKeeperStatus {
  /** Transactions it follows between signing and finality. */
  followed: number;
  /** Its wallets' addresses on the chain; none without a key. */
  addresses: string[];
}

/** A chain's keeper object as the leader calls it; nothing else calls it. */
export interface ChainKeeperRpc {
  submit(request: RoutedSubmission): Promise<SubmitOutcome>;
  /** As `KeeperRpc.writeThrough`, for a submission this chain's keeper answered. */
  writeThrough(id: string): Promise<boolean>;
  status(chainId: number): Promise<ChainKeeperStatus>;
}
