import type { ExecutionStatus, QuoteStatus, TimelineEntry } from "../schemas";

/** Statuses in which a quote can still be signed, submitted, cancelled or expire. */
export const OPEN_STATUSES: readonly QuoteStatus[] = ["quoted", "signed"];

export const isOpen = (status: QuoteStatus) => OPEN_STATUSES.includes(status);

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

export interface QuoteMove {
  /** The quote statuses the move applies in; anywhere else it changes nothing. */
  from: readonly QuoteStatus[];
  /** The quote's next status; null leaves it (a taker requote, a replaced transaction) or only sets `final`. */
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
 * Every move of a quote (docs/api.md, "Quote lifetime"; docs/settlement.md, "What moves"): the steps of
 * settlement, the taker's cancel and the expiry. Every D1 statement that writes a quote's status is
 * generated from its row here (src/db/quote-moves.ts), its condition from `from`, so a move repeated after
 * a restart, or raced by another, changes nothing the second time; what else a move asks (the expiry's
 * time, no claim by the keeper for a cancel) is in its statement.
 *
 * `expired` may still become `submitted`: the keeper claims an open quote right before it broadcasts, but
 * the expiry can be recorded while the broadcast is on its way, and the taker's signature is valid on
 * chain until the order's deadline, so the chain decides. `cancelled` never does: a cancel needs an
 * unclaimed quote, and a claimed quote cannot be cancelled (docs/settlement.md, "Cancel and submit").
 */
export const QUOTE_MOVES = {
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
  /** The taker cancelled an open quote the keeper has not claimed; no timeline event. */
  cancelled: { from: OPEN_STATUSES, to: "cancelled", execution: null, events: [] },
  /** An open quote's `expiresAt` passed: recorded the first time it is read, or by the keeper's sweep. */
  expired: { from: OPEN_STATUSES, to: "expired", execution: null, events: ["expired"] },
} as const satisfies Record<string, QuoteMove>;

export type QuoteMoveName = keyof typeof QUOTE_MOVES;

/** The keeper's steps of settlement: every move but the cancel and the expiry. */
export type SettlementStep = Exclude<QuoteMoveName, "cancelled" | "expired">;

/** Which status may follow which: the status moves of `QUOTE_MOVES`, by the status they leave. */
export const QUOTE_TRANSITIONS: Readonly<Record<QuoteStatus, readonly QuoteStatus[]>> = (() => {
  const next: Record<QuoteStatus, QuoteStatus[]> = {
    quoted: [],
    signed: [],
    submitted: [],
    settled: [],
    failed: [],
    expired: [],
    cancelled: [],
  };
  for (const move of Object.values(QUOTE_MOVES) as QuoteMove[])
    for (const from of move.from) if (move.to !== null && !next[from].includes(move.to)) next[from].push(move.to);
  return next;
})();

/** Statuses a quote never leaves (`failed`, `cancelled`): its event stream is over. */
export const isQuoteTerminal = (status: QuoteStatus) => QUOTE_TRANSITIONS[status].length === 0;
