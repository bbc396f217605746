import type { QuoteStatus } from "../schemas/quote";

/** The quote's state machine (docs/api.md): which status may follow which. */
export const QUOTE_TRANSITIONS: Record<QuoteStatus, readonly QuoteStatus[]> = {
  quoted: ["signed", "submitted", "expired", "cancelled", "failed"],
  signed: ["submitted", "expired", "cancelled", "failed"],
  submitted: ["settled", "failed"],
  settled: [],
  failed: [],
  expired: [],
  cancelled: [],
};

/** Statuses in which a quote can still be signed, submitted, cancelled or expire. */
export const OPEN_STATUSES: readonly QuoteStatus[] = ["quoted", "signed"];

export const isOpen = (status: QuoteStatus) => OPEN_STATUSES.includes(status);

export const canMove = (from: QuoteStatus, to: QuoteStatus) => QUOTE_TRANSITIONS[from].includes(to);

/** `'quoted','signed'`, for SQL conditions; the statuses are constants, never input. */
export const OPEN_SQL = OPEN_STATUSES.map((s) => `'${s}'`).join(",");
