import type { Execution, Quote } from "../schemas";
import { BATCH_QUOTE_IDS } from "./archive-batches";
import { EXECUTION_RECORD_COLUMNS, type ExecutionDbRow, executionOfRow } from "./executions";
import type { FillDbRow, OfferDbRow, QuoteDbRow, QuoteExecutionDbRow, TimelineDbRow } from "./quote-db-rows";
import { assembleQuote, EXECUTION_COLUMNS, FILL_COLUMNS, OFFER_COLUMNS, rows, TIMELINE_COLUMNS } from "./quotes";

/**
 * An archived quote, a line of its batch's object (docs/operations.md, "Archive"): the quote's record as
 * `GET /v1/quotes/{id}` showed it, and each of its executions as `GET /v1/executions/{id}` showed it without
 * the quote's lifecycle, which is the quote beside it.
 */
export interface ArchivedQuote {
  quote: Quote;
  executions: Omit<Execution, "lifecycle">[];
}

/** Groups rows by their `quote_id`, keeping their order. */
function byQuote<T extends { quote_id: string }>(list: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const r of list) map.set(r.quote_id, [...(map.get(r.quote_id) ?? []), r]);
  return map;
}

/** The records of batch `batch`'s quotes, oldest ended first, read in one round trip. */
export async function readBatchRecords(db: D1Database, batch: number): Promise<ArchivedQuote[]> {
  const ids = BATCH_QUOTE_IDS;
  const [quotes, offers, timeline, executions, fills, records] = await db.batch([
    db.prepare(`SELECT * FROM quotes WHERE quote_id IN (${ids}) ORDER BY updated_at, quote_id`).bind(batch),
    db.prepare(`SELECT ${OFFER_COLUMNS} FROM offers WHERE quote_id IN (${ids}) ORDER BY quote_id, rank`).bind(batch),
    db
      .prepare(`SELECT ${TIMELINE_COLUMNS} FROM timeline_events WHERE quote_id IN (${ids}) ORDER BY quote_id, id`)
      .bind(batch),
    db
      .prepare(
        `SELECT ${EXECUTION_COLUMNS} FROM executions WHERE quote_id IN (${ids}) ORDER BY created_at, execution_id`,
      )
      .bind(batch),
    db.prepare(`SELECT ${FILL_COLUMNS} FROM fills WHERE quote_id IN (${ids}) ORDER BY tx_hash, log_index`).bind(batch),
    db
      .prepare(
        `SELECT ${EXECUTION_RECORD_COLUMNS} FROM executions e JOIN quotes q ON q.quote_id = e.quote_id
         WHERE e.quote_id IN (${ids}) ORDER BY e.created_at, e.execution_id`,
      )
      .bind(batch),
  ]);
  const [offersOf, timelineOf, executionsOf, fillsOf, recordsOf] = [
    byQuote(rows<OfferDbRow & { quote_id: string }>(offers)),
    byQuote(rows<TimelineDbRow & { quote_id: string }>(timeline)),
    byQuote(rows<QuoteExecutionDbRow>(executions)),
    byQuote(rows<FillDbRow>(fills)),
    byQuote(rows<ExecutionDbRow>(records)),
  ];
  return rows<QuoteDbRow>(quotes).map((row) => {
    const id = row.quote_id;
    const quote = assembleQuote(
      row,
      offersOf.get(id) ?? [],
      timelineOf.get(id) ?? [],
      executionsOf.get(id) ?? [],
      fillsOf.get(id) ?? [],
    );
    const executions = (recordsOf.get(id) ?? []).map((r) => {
      const { createdAt: _createdAt, ...execution } = executionOfRow(r);
      return execution;
    });
    return { quote, executions };
  });
}
