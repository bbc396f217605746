import type { ExecutionStatus, QuoteStatus, TimelineEntry } from "../schemas";

/**
 * The quote's state machine (docs/api.md): which status may follow which.
 *
 * `expired` may still become `submitted`: the keeper claims an open quote right before it broadcasts, but
 * the expiry can be recorded while the broadcast is on its way, and the taker's signature is valid on
 * chain until the order's deadline, so the chain decides. `cancelled` never does: a cancel needs an
 * unclaimed quote, and a claimed quote cannot be cancelled (docs/settlement.md, "Cancel and submit").
 */
export const QUOTE_TRANSITIONS: Record<QuoteStatus, readonly QuoteStatus[]> = {
  quoted: ["signed", "submitted", "expired", "cancelled", "failed"],
  signed: ["submitted", "expired", "cancelled", "failed"],
  submitted: ["settled", "failed"],
  // A reorg took the settlement's block away before it was final (docs/settlement.md, "Reorgs").
  settled: ["submitted"],
  failed: [],
  expired: ["submitted"],
  cancelled: [],
};

/** Statuses in which a quote can still be signed, submitted, cancelled or expire. */
export const OPEN_STATUSES: readonly QuoteStatus[] = ["quoted", "signed"];

export const isOpen = (status: QuoteStatus) => OPEN_STATUSES.includes(status);

export const canMove = (from: QuoteStatus, to: QuoteStatus) => QUOTE_TRANSITIONS[from].includes(to);

/** A list of statuses for an SQL `IN (…)`; the statuses are constants, never input. */
export const statusSql = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(",");

/** `'quoted','signed'`, for SQL conditions. */
export const OPEN_SQL = statusSql(OPEN_STATUSES);

/** The execution's state machine: a submitted execution settles or fails; the others are where they end. */
export const EXECUTION_TRANSITIONS: Record<ExecutionStatus, readonly ExecutionStatus[]> = {
  submitted: ["settled", "failed"],
  settled: ["submitted"],
  failed: [],
  requote: [],
};

type TimelineEvent = TimelineEntry["event"];

export interface SettlementMove {
  /** The quote statuses the move applies in; anywhere else it changes nothing. */
  from: readonly QuoteStatus[];
  /** The quote's next status; null leaves it (a taker requote) or only sets `final`. */
  to: QuoteStatus | null;
  /** The execution the move creates (`requote`, `submitted`) or moves a submitted one to; null: none. */
  execution: ExecutionStatus | null;
  /** Timeline events, in order. */
  events: readonly TimelineEvent[];
  /**
   * Its events are written each time the step applies (with the quote still in `from`, once per distinct
   * detail), not once per quote: a fee bump or a reorg can happen more than once.
   */
  again?: true;
}

/**
 * What each step of settlement does to the quote and its execution (docs/settlement.md). The D1 writes
 * are generated from this table, their conditions from `from`, so a step repeated after a restart
 * changes nothing the second time.
 */
export const SETTLEMENT_MOVES = {
  /** The taker's signature checked out. */
  signed: { from: ["quoted"], to: "signed", execution: null, events: ["signed"] },
  /** Simulation failed for a reason the taker can fix: the quote stays open. */
  takerRequote: { from: OPEN_STATUSES, to: null, execution: "requote", events: ["requote"] },
  /** Simulation failed for any other reason: the quote is done. */
  requote: { from: OPEN_STATUSES, to: "failed", execution: "requote", events: ["requote", "failed"] },
  /** The network has the transaction. */
  submitted: {
    from: ["quoted", "signed", "expired"],
    to: "submitted",
    execution: "submitted",
    events: ["submitted"],
  },
  /** Its receipt shows the fill. */
  settled: { from: ["submitted"], to: "settled", execution: "settled", events: ["settled"] },
  /** It reverted, or was dropped. */
  failed: { from: ["submitted"], to: "failed", execution: "failed", events: ["failed"] },
  /** The settlement is `finalityConfirmations` deep. */
  final: { from: ["settled"], to: null, execution: null, events: ["final"] },
  /**
   * A transaction not mined in time was replaced by one with the same nonce at a higher fee: the
   * execution follows the new hash, and the timeline says so with another `submitted` (its detail names
   * the hash it replaces).
   */
  replaced: { from: ["submitted"], to: null, execution: "submitted", events: ["submitted"], again: true },
  /**
   * The settlement's block was reorged away before `final`: back to `submitted` and followed again, the
   * timeline's `submitted` detail saying from which block (docs/settlement.md, "Reorgs").
   */
  reorged: { from: ["settled"], to: "submitted", execution: "submitted", events: ["submitted"], again: true },
} as const satisfies Record<string, SettlementMove>;

export type SettlementStep = keyof typeof SETTLEMENT_MOVES;

export interface EndingMove {
  /** The quote statuses the move applies in. */
  from: readonly QuoteStatus[];
  to: QuoteStatus;
  /** Timeline events, written once per quote. */
  events: readonly TimelineEvent[];
}

/**
 * The moves that end an open quote without a fill (docs/api.md, "Quote lifetime"): the taker's cancel and
 * the expiry. src/db/quote-status.ts builds their conditional statements from these rows, as
 * src/db/settlement.ts does from SETTLEMENT_MOVES; what else a move asks (the expiry's time, no claim by
 * the keeper) is in the statements.
 */
export const ENDING_MOVES = {
  cancelled: { from: OPEN_STATUSES, to: "cancelled", events: [] },
  expired: { from: OPEN_STATUSES, to: "expired", events: ["expired"] },
} as const satisfies Record<string, EndingMove>;
