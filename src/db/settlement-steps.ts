import { resolverKey } from "../ids";
import type { Fill, QuoteStatus, Settlement } from "../schemas";
import { OPEN_SQL, QUOTE_MOVES, type SettlementStep } from "../states";
import { limitFillFailed, limitFillSettled } from "./limit-moves";
import { executionMoveSql } from "./quote-moves";
import {
  countFailed,
  countLegsSubmitted,
  countSettled,
  countSubmitted,
  type ExecutionTerms,
  fillStatements,
  finishExecution,
  idempotencyKeyStatement,
  insertExecutionOnce,
  quoteStepStatements,
} from "./settlement";

/**
 * The keeper's settlement steps as D1 batches (docs/settlement.md, "What moves"): each step is one
 * atomic batch of the conditional statements of src/db/settlement.ts, so a step written again after a
 * restart changes nothing.
 */

/** A claim's answer; when it failed, where the quote stands now (null fields: no such quote). */
export type Claim = { claimed: true } | { claimed: false; status: QuoteStatus | null; expiresAt: string | null };

/**
 * Claims an open, unexpired quote right before the keeper signs a fill of it; not claimed when it is no
 * longer open (expired, cancelled), with its status as it is now, read only then. From then on a cancel
 * is refused (`cancelQuote`), so a cancel and a fill of one quote never both succeed. The status is left
 * as it is: `signed` is written with the broadcast.
 */
export async function claimOpenQuote(db: D1Database, quoteId: string, now: string): Promise<Claim> {
  const claimed = await db
    .prepare(`UPDATE quotes SET claimed_at = ?2 WHERE quote_id = ?1 AND status IN (${OPEN_SQL}) AND expires_at > ?2`)
    .bind(quoteId, now)
    .run();
  if (claimed.meta.changes > 0) return { claimed: true };
  const row = await db
    .prepare("SELECT status, expires_at FROM quotes WHERE quote_id = ?1")
    .bind(quoteId)
    .first<{ status: QuoteStatus; expires_at: string }>();
  return { claimed: false, status: row?.status ?? null, expiresAt: row?.expires_at ?? null };
}

/** Gives up a claim whose fill never left (refused, or not signed): the quote is as it was, cancellable. */
export async function releaseClaim(db: D1Database, quoteId: string): Promise<void> {
  await db
    .prepare(`UPDATE quotes SET claimed_at = NULL WHERE quote_id = ?1 AND status IN (${OPEN_SQL})`)
    .bind(quoteId)
    .run();
}

/**
 * Why a fill failed, and whether it was its winner's own fault (src/resolvers/own-failure.ts): only then
 * is it one of the winner's failures, which its fill rate counts (docs/reliability.md, "What is measured").
 */
export interface FillFailure {
  reason: string;
  resolversOwn: boolean;
  /**
   * The resolver whose leg the chain named, of a fill of several makers (docs/legs.md): its failure, not the
   * quote's resolver's; absent when the chain named none.
   */
  leg?: string | undefined;
}

/**
 * A simulation that reverted: a `requote` execution, the key, the winner's failure when it was its own,
 * and the quote's move (`signed` and open, or `failed`): a requote answers the taker's valid signature, so
 * the quote records it.
 */
export async function writeRequote(
  db: D1Database,
  terms: ExecutionTerms,
  step: Extract<SettlementStep, "requote" | "takerRequote">,
  failure: FillFailure,
): Promise<void> {
  const { at, idempotencyKey, executionId } = terms;
  const { reason } = failure;
  const failing = failure.leg ?? terms.resolver;
  await db.batch([
    ...(failing && failure.resolversOwn ? [countFailed(db, failing, executionId, at, "requote")] : []),
    insertExecutionOnce(db, terms, "requote", { reason, txHash: null, submitter: null }, at),
    ...(idempotencyKey ? [idempotencyKeyStatement(db, idempotencyKey, executionId, at)] : []),
    ...quoteStepStatements(db, terms.quoteId, "signed", at, null),
    ...quoteStepStatements(db, terms.quoteId, step, at, { reason, executionId }),
  ]);
}

/**
 * The network has the transaction: the resolver's count, the `submitted` execution, the key, and the
 * quote's `signed` then `submitted`: a submission that was refused never got this far, so it left the
 * quote as it was. The keeper writes these of one moment's submissions in one batch (src/db/record-batch.ts).
 */
export function submittedStatements(
  db: D1Database,
  terms: ExecutionTerms,
  tx: { txHash: string; submitter: string },
): D1PreparedStatement[] {
  const { at, idempotencyKey, executionId, resolver } = terms;
  return [
    // Every leg's resolver counts the fill: the quote's, and of a fill of several makers the others' (docs/legs.md).
    ...(resolver
      ? [
          countSubmitted(db, resolver, executionId, at),
          countLegsSubmitted(db, terms.quoteId, resolver, executionId, at),
        ]
      : []),
    insertExecutionOnce(db, terms, "submitted", { reason: null, txHash: tx.txHash, submitter: tx.submitter }, at),
    ...(idempotencyKey ? [idempotencyKeyStatement(db, idempotencyKey, executionId, at)] : []),
    ...quoteStepStatements(db, terms.quoteId, "signed", at, null),
    ...quoteStepStatements(db, terms.quoteId, "submitted", at, { txHash: tx.txHash }),
  ];
}

/**
 * What a receipt showed of a quote's fill: the quote record's `settlement` (still unconfirmed), its fills,
 * what actually moved, and the transaction that landed.
 */
export interface SettledReceipt {
  txHash: string;
  block: number;
  /** Null when the chain's node did not report it. */
  gasUsed: string | null;
  /** What the keeper paid, in native units. */
  keeperSpent: string;
  /** Whether the fill sent carried the taker's EIP-2612 permit: its gas counts toward that kind's median. */
  carriedPermit: boolean;
  fills: Fill[];
  settlement: Settlement;
  proceeds: string;
  takerPays: string;
}

/**
 * The receipt shows the fill: the resolver's count, the settled execution, the fills and the settlement.
 * One record: the indexer writes those of one pass in one batch (src/db/record-batch.ts).
 */
export function settledStatements(
  db: D1Database,
  terms: Pick<ExecutionTerms, "executionId" | "quoteId" | "resolver">,
  receipt: SettledReceipt,
  at: string,
  /** Each leg's resolver (`legResolvers`), who count the fill. */
  legs: readonly string[],
): D1PreparedStatement[] {
  const { executionId, quoteId } = terms;
  return [
    // Each leg's resolver counts its own fill, by the chain's events: one per leg (docs/legs.md).
    ...legs.map((r) => countSettled(db, r, executionId, at)),
    finishExecution(
      db,
      executionId,
      "settled",
      { reason: null, gasUsed: receipt.gasUsed, proceeds: receipt.proceeds, takerPays: receipt.takerPays },
      at,
    ),
    // The hash that landed: after a fee bump it may be any of the nonce's transactions.
    db
      .prepare("UPDATE executions SET tx_hash = ?2, keeper_spent = ?3, fill_permit = ?4 WHERE execution_id = ?1")
      .bind(executionId, receipt.txHash, receipt.keeperSpent, receipt.carriedPermit ? 1 : 0),
    ...fillStatements(db, quoteId, receipt.txHash, receipt.fills),
    ...quoteStepStatements(db, quoteId, "settled", at, { block: receipt.block }, receipt.settlement),
    limitFillSettled(db, quoteId, at),
  ];
}

/**
 * The resolvers a fill counts for: the quote's and each leg's, once each whatever the case of the address. A
 * leg the chain names by another key of a resolver (a Solana maker's key) says which resolver it is (`node`).
 */
export function legResolvers(
  resolver: string | null,
  fills: readonly (Pick<Fill, "resolver"> & { node?: string | undefined })[],
): string[] {
  const all = [...(resolver ? [resolver] : []), ...fills.map((f) => f.node ?? f.resolver)];
  return [...new Map(all.map((r) => [resolverKey(r), r])).values()];
}

/**
 * A stuck transaction was replaced (same nonce, higher fee): the execution follows the new hash, and the
 * timeline gets a `submitted` naming the hash it replaces and the bump's number.
 */
export async function writeReplaced(
  db: D1Database,
  terms: Pick<ExecutionTerms, "executionId" | "quoteId">,
  tx: { txHash: string; replaces: string; bump: number },
  at: string,
): Promise<void> {
  await db.batch([
    db
      .prepare("UPDATE executions SET tx_hash = ?2, updated_at = ?3 WHERE execution_id = ?1 AND status = 'submitted'")
      .bind(terms.executionId, tx.txHash, at),
    ...quoteStepStatements(db, terms.quoteId, "replaced", at, tx),
  ]);
}

/**
 * The settlement's block was reorged away before `final`: the quote and its execution go back to
 * `submitted` (the settlement and the fills of that transaction gone), and the timeline's `submitted`
 * says from which block.
 */
export async function writeReorged(
  db: D1Database,
  terms: Pick<ExecutionTerms, "executionId" | "quoteId">,
  tx: { txHash: string; block: number },
  at: string,
): Promise<void> {
  await db.batch([
    db
      .prepare(executionMoveSql(QUOTE_MOVES.reorged.execution, "gas_used = NULL, updated_at = ?2", "execution_id = ?1"))
      .bind(terms.executionId, at),
    db.prepare("DELETE FROM fills WHERE quote_id = ?1 AND tx_hash = ?2").bind(terms.quoteId, tx.txHash),
    ...quoteStepStatements(db, terms.quoteId, "reorged", at, { txHash: tx.txHash, reorgedFrom: tx.block }),
  ]);
}

/**
 * The transaction reverted or was dropped: the winner's failure when it was its own, the execution and
 * the quote `failed`. True when an execution moved (a transaction lost before its broadcast was ever
 * confirmed has none).
 */
export async function writeFailed(
  db: D1Database,
  terms: Pick<ExecutionTerms, "executionId" | "quoteId" | "resolver">,
  failure: FillFailure & { txHash: string; gasUsed: string | null },
  at: string,
): Promise<boolean> {
  const { reason, txHash, gasUsed } = failure;
  const { executionId } = terms;
  const failing = failure.leg ?? terms.resolver;
  // Before the execution moves: the count's condition is that it is still `submitted`.
  const counted = failing && failure.resolversOwn ? [countFailed(db, failing, executionId, at, "failed")] : [];
  const results = await db.batch([
    ...counted,
    finishExecution(db, executionId, "failed", { reason, gasUsed }, at),
    ...quoteStepStatements(db, terms.quoteId, "failed", at, { reason, txHash }),
    limitFillFailed(db, terms.quoteId, reason, at),
  ]);
  return (results[counted.length]?.meta.changes ?? 0) > 0;
}

/** The settlement is deep enough: `final`, `settlement.confirmed`, timeline `final`. One record, as `settledStatements`. */
export function finalStatements(db: D1Database, quoteId: string, at: string): D1PreparedStatement[] {
  return quoteStepStatements(db, quoteId, "final", at, null);
}
