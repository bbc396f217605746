/**
 * Commitment on a chain with one validator: a landed transaction is `confirmed` at once (its only voter
 * has voted) and `finalized` once 32 slots are built on top of it, as a cluster roots a slot 32 votes deep.
 */

export type Commitment = "processed" | "confirmed" | "finalized";
export type ConfirmationStatus = Commitment;

/** Slots between a slot and its finalization. */
export const FINALIZATION_DEPTH = 32;

/**
 * How long a validator answers `getSignatureStatuses` from its status cache, in slots (agave keeps the
 * statuses of the last 300 blockhashes). Older signatures need `searchTransactionHistory`.
 */
export const STATUS_CACHE_SLOTS = 300;

/** The newest slot seen at `commitment` when the chain is at `currentSlot`. */
export function slotAtCommitment(commitment: Commitment, currentSlot: number): number {
  return commitment === "finalized" ? Math.max(0, currentSlot - FINALIZATION_DEPTH) : currentSlot;
}

export function isFinalized(landedSlot: number, currentSlot: number): boolean {
  return currentSlot - landedSlot >= FINALIZATION_DEPTH;
}

/** `confirmations` and `confirmationStatus` of a transaction that landed at `landedSlot`. */
export function confirmationOf(
  landedSlot: number,
  currentSlot: number,
): { confirmations: number | null; confirmationStatus: ConfirmationStatus } {
  if (isFinalized(landedSlot, currentSlot)) return { confirmations: null, confirmationStatus: "finalized" };
  return { confirmations: currentSlot - landedSlot, confirmationStatus: "confirmed" };
}

/** Whether a transaction of `commitment` or deeper is visible (`getTransaction` answers null until then). */
export function visibleAt(commitment: Commitment, landedSlot: number, currentSlot: number): boolean {
  return commitment !== "finalized" || isFinalized(landedSlot, currentSlot);
}
