import { resolverKey } from "../ids";
import type { ExecutionStatus, Fill, Settlement, TimelineEntry } from "../schemas";
import { QUOTE_MOVES, type QuoteMove, type SettlementStep } from "../states";
import { toJson } from "./json";
import { executionMoveSql, inMoveFrom, quoteMoveSql } from "./quote-moves";
import { countStatement, dayOf } from "./resolver-days";

/**
 * The keeper's D1 writes, one batch per settlement step. Every statement is conditional (on the quote's
 * status, on the execution's, on an event not being there yet), so a step written again after a restart
 * changes nothing.
 */

type TimelineEvent = TimelineEntry["event"];

/** The id of the quote's last reorg event (a `submitted` whose detail has `reorgedFrom`), or 0. */
const LAST_REORG = `(SELECT COALESCE(MAX(id), 0) FROM timeline_events
  WHERE quote_id = ?1 AND event = 'submitted' AND json_extract(detail, '$.reorgedFrom') IS NOT NULL)`;

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * An accepted submission's terms, as the keeper keeps them until its transaction is final: what its
 * execution row records about the quote (record 2.1), the taker's Idempotency-Key, and when it was accepted.
 */
export interface ExecutionTerms {
  executionId: string;
  quoteId: string;
  resolver: string | null;
  proceeds: string;
  takerPays: string;
  /** The Idempotency-Key, scoped to the taker (`scopedIdempotencyKey`), or null. */
  idempotencyKey: string | null;
  /** When the keeper accepted the submission (ISO 8601). */
  at: string;
}

/** The quote's status move and timeline events of one step (its row of `QUOTE_MOVES`). */
export function quoteStepStatements(
  db: D1Database,
  quoteId: string,
  step: SettlementStep,
  at: string,
  detail: Record<string, unknown> | null,
  settlement: Settlement | null = null,
): D1PreparedStatement[] {
  const move: QuoteMove = QUOTE_MOVES[step];
  const from = inMoveFrom(step);
  const event = (name: TimelineEvent, condition: string) =>
    db
      .prepare(
        `INSERT INTO timeline_events (quote_id, at, event, detail)
         SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM quotes WHERE quote_id = ?1 AND ${condition})`,
      )
      .bind(quoteId, at, name, toJson(name === "final" ? null : detail));
  // Once since the quote's last reorg: a settlement reorged away is settled again with its own events.
  const once = (name: TimelineEvent, reached: string) =>
    event(
      name,
      `${reached} AND NOT EXISTS (SELECT 1 FROM timeline_events WHERE quote_id = ?1 AND event = ?3 AND id > ${LAST_REORG})`,
    );
  const statements: D1PreparedStatement[] = [];
  // A requote is an attempt: one event each time, written while the quote is still where the step applies.
  if (move.events.includes("requote")) statements.push(event("requote", from));
  if (move.again) {
    const sameDetail = "SELECT 1 FROM timeline_events WHERE quote_id = ?1 AND event = ?3 AND detail IS ?4";
    for (const name of move.events) statements.push(event(name, `${from} AND NOT EXISTS (${sameDetail})`));
  }
  if (move.to !== null) {
    // A reorg takes the settlement away with the status; every other move keeps or sets it.
    const kept = step === "reorged" ? "NULL" : "COALESCE(?3, settlement)";
    const values = [quoteId, at, ...(step === "reorged" ? [] : [toJson(settlement)])];
    statements.push(
      db.prepare(quoteMoveSql(step, `updated_at = ?2, settlement = ${kept}`, "quote_id = ?1")).bind(...values),
    );
  } else if (step === "final") {
    const confirmed = "settlement = json_set(settlement, '$.confirmed', json('true'), '$.confirmedAt', ?2)";
    statements.push(
      db
        .prepare(quoteMoveSql(step, `final = 1, updated_at = ?2, ${confirmed}`, "quote_id = ?1 AND final = 0"))
        .bind(quoteId, at),
    );
  }
  if (move.again) return statements;
  // Every other event happens once per quote, when the step has taken the quote where it leads.
  const reached = move.to !== null ? `status = '${move.to}'` : "final = 1";
  for (const name of move.events) if (name !== "requote") statements.push(once(name, reached));
  return statements;
}

/** A new execution row; written again (recovery), it is left as it is. */
export function insertExecutionOnce(
  db: D1Database,
  terms: Omit<ExecutionTerms, "idempotencyKey" | "at">,
  status: Extract<ExecutionStatus, "submitted" | "requote">,
  fields: { reason: string | null; txHash: string | null; submitter: string | null },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO executions (execution_id, quote_id, status, reason, tx_hash, submitter, gas_used, resolver,
         proceeds, taker_pays, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9, ?10, ?10)
       ON CONFLICT (execution_id) DO NOTHING`,
    )
    .bind(
      terms.executionId,
      terms.quoteId,
      status,
      fields.reason,
      fields.txHash,
      fields.submitter,
      terms.resolver,
      terms.proceeds,
      terms.takerPays,
      at,
    );
}

/** Moves a submitted execution to `settled` or `failed`, with what its receipt showed. */
export function finishExecution(
  db: D1Database,
  executionId: string,
  status: Extract<ExecutionStatus, "settled" | "failed">,
  fields: { reason: string | null; gasUsed: string | null; proceeds?: string; takerPays?: string },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      executionMoveSql(
        status,
        "reason = ?2, gas_used = ?3, proceeds = COALESCE(?4, proceeds), taker_pays = COALESCE(?5, taker_pays), updated_at = ?6",
        "execution_id = ?1",
      ),
    )
    .bind(executionId, fields.reason, fields.gasUsed, fields.proceeds ?? null, fields.takerPays ?? null, at);
}

export function fillStatements(db: D1Database, quoteId: string, txHash: string, fills: Fill[]): D1PreparedStatement[] {
  return fills.map((f) =>
    db
      .prepare(
        `INSERT INTO fills (quote_id, tx_hash, log_index, order_hash, resolver, filler) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tx_hash, log_index) DO NOTHING`,
      )
      .bind(quoteId, txHash, f.logIndex, f.orderHash, f.resolver, f.filler),
  );
}

/** Remembers which execution an Idempotency-Key produced; a key past its retention is taken over. */
export function idempotencyKeyStatement(
  db: D1Database,
  key: string,
  executionId: string,
  at: string,
): D1PreparedStatement {
  const cutoff = new Date(Date.parse(at) - IDEMPOTENCY_RETENTION_MS).toISOString();
  return db
    .prepare(
      `INSERT INTO idempotency_keys (key, execution_id, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (key) DO UPDATE SET execution_id = excluded.execution_id, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= ?4`,
    )
    .bind(key, executionId, at, cutoff);
}

/**
 * An Idempotency-Key as it is stored: scoped to the quote's taker, so two takers' keys never meet.
 * `executionForQuoteKey` spells the same in SQL (`lower` equals `toLowerCase` on the ASCII of addresses).
 */
export const scopedIdempotencyKey = (taker: string, key: string) => `${taker.toLowerCase()}:${key}`;

const EXECUTION_BY_KEY = `SELECT e.execution_id AS executionId, e.quote_id AS quoteId, e.status, e.reason,
         e.tx_hash AS txHash, e.submitter, e.gas_used AS gasUsed, e.resolver, e.proceeds,
         e.taker_pays AS takerPays, e.created_at AS createdAt, e.updated_at AS updatedAt
       FROM idempotency_keys k JOIN executions e ON e.execution_id = k.execution_id`;

/**
 * The statement that reads the execution an Idempotency-Key produced inside its retention, if any, for
 * the key as a taker sent it with a quote, scoped to that quote's taker in SQL: it needs no read of the
 * quote first, so it runs in the same batch as that read (`readSubmission`).
 */
export function executionForKeyStatement(db: D1Database, quoteId: string, key: string, now: string) {
  const cutoff = new Date(Date.parse(now) - IDEMPOTENCY_RETENTION_MS).toISOString();
  return db
    .prepare(
      `${EXECUTION_BY_KEY}
       WHERE k.key = (SELECT lower(taker) || ':' || ?2 FROM quotes WHERE quote_id = ?1) AND k.created_at > ?3`,
    )
    .bind(quoteId, key, cutoff);
}

/**
 * The statement that reads which of `others` (quotes the keeper leader took the same Idempotency-Key for,
 * newest first) is the same taker's as quote `quoteId`, if any: the key is that quote's, not this one's.
 */
export function keyQuoteStatement(db: D1Database, quoteId: string, others: readonly string[]) {
  const listed = others.map((_, i) => `?${i + 2}`).join(", ");
  return db
    .prepare(
      `SELECT quote_id AS quoteId FROM quotes
       WHERE quote_id IN (${listed}) AND lower(taker) = (SELECT lower(taker) FROM quotes WHERE quote_id = ?1)
       ORDER BY quoted_at DESC LIMIT 1`,
    )
    .bind(quoteId, ...others);
}

export async function pruneIdempotencyKeys(db: D1Database, now: string): Promise<void> {
  const cutoff = new Date(Date.parse(now) - IDEMPOTENCY_RETENTION_MS).toISOString();
  await db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").bind(cutoff).run();
}

/** While the execution is not written yet: a write of the keeper's first step of it (broadcast, requote). */
const NEW_EXECUTION = (id: string) => `NOT EXISTS (SELECT 1 FROM executions WHERE execution_id = ${id})`;
/** While the execution is still `submitted`: a write of its outcome on chain (settled, failed). */
const SUBMITTED_EXECUTION = (id: string) =>
  `EXISTS (SELECT 1 FROM executions WHERE execution_id = ${id} AND status = 'submitted')`;

/** The resolver's `submitted` counter, once per execution: only while the execution row does not exist yet. */
export function countSubmitted(db: D1Database, resolver: string, executionId: string, at: string) {
  return countStatement(db, resolver, { submitted: 1 }, at, { sql: NEW_EXECUTION, param: executionId });
}

/**
 * The `submitted` counter of each other leg's resolver of a fill of several makers (docs/legs.md): every
 * offer of the quote that won, but `resolver`'s (counted by `countSubmitted`), once per execution as that is.
 */
export function countLegsSubmitted(db: D1Database, quoteId: string, resolver: string, executionId: string, at: string) {
  return db
    .prepare(
      `INSERT INTO resolver_days (address, day, submitted)
       SELECT DISTINCT lower(resolver), ?2, 1 FROM offers
       WHERE quote_id = ?1 AND won = 1 AND lower(resolver) <> ?3 AND ${NEW_EXECUTION("?4")}
       ON CONFLICT (address, day) DO UPDATE SET submitted = submitted + excluded.submitted`,
    )
    .bind(quoteId, dayOf(at), resolverKey(resolver), executionId);
}

/** The resolver's `settled` counter, once per execution: only while the execution is still `submitted`. */
export function countSettled(db: D1Database, resolver: string, executionId: string, at: string) {
  return countStatement(db, resolver, { settled: 1 }, at, { sql: SUBMITTED_EXECUTION, param: executionId });
}

/**
 * The resolver's `failed` counter, once per execution: a fill of its win that failed through its own
 * fault, either requoted by the simulation (`requote`, while its execution is not written yet) or failed
 * after its broadcast (`failed`, while its execution is still `submitted`).
 */
export function countFailed(
  db: D1Database,
  resolver: string,
  executionId: string,
  at: string,
  step: "requote" | "failed",
) {
  const sql = step === "requote" ? NEW_EXECUTION : SUBMITTED_EXECUTION;
  return countStatement(db, resolver, { failed: 1 }, at, { sql, param: executionId });
}
