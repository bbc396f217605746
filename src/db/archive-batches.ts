/**
 * The archive's book in D1 (migrations/0021_archive.sql; docs/operations.md, "Archive"): which ended quotes
 * a batch holds, its R2 object, and whether its rows have left D1. The steps of a batch are each one atomic
 * statement batch: planned (with its ids), then archived (its rows deleted), so a run that stops between
 * them leaves a planned batch the next run finishes under the same object key.
 */

import { type EndedKind, KIND_SQL } from "./retention";

/** A batch planned or archived. */
export interface ArchiveBatch {
  batch: number;
  kind: EndedKind;
  objectKey: string;
}

/** The quote ids of batch ?1 as the quotes table spells them. */
export const BATCH_QUOTE_IDS = "SELECT 'q_' || lower(hex(id)) FROM archived_ids WHERE batch = ?1";

/** The last batch planned: the one a planning statement batch just inserted. */
const LAST_BATCH = "(SELECT MAX(batch) FROM archive_batches)";

/** An id as archived_ids keeps it: the 16 bytes its hex spells, from `q_…` or `x_…`. */
export const idBytesSql = (column: string) => `unhex(substr(${column}, instr(${column}, '_') + 1))`;

/**
 * The quotes of kind `kind` a batch may take (?1 ended at or before), oldest first: not in a batch yet, and
 * not followed by a limit order still filling (as retention left them, src/db/retention.ts).
 */
const eligibleSql = (kind: EndedKind, more = "") =>
  `SELECT quote_id, updated_at FROM quotes q
   WHERE ${KIND_SQL[kind]} AND updated_at <= ?1 ${more}
     AND NOT EXISTS (SELECT 1 FROM limit_orders l WHERE l.quote_id = q.quote_id AND l.status = 'filling')
     AND NOT EXISTS (SELECT 1 FROM archived_ids a WHERE a.id = ${idBytesSql("q.quote_id")})
   ORDER BY updated_at, quote_id`;

/**
 * Plans the next batch of kind `kind`: up to `limit` of the oldest quotes ended at or before `endedBy`, all
 * of the corridor (the id's tag, src/ids.ts) and UTC day of the oldest, so that an object holds one
 * corridor's day. Null when none is due.
 */
export async function planArchiveBatch(
  db: D1Database,
  kind: EndedKind,
  endedBy: string,
  limit: number,
): Promise<ArchiveBatch | null> {
  const first = await db
    .prepare(`${eligibleSql(kind)} LIMIT 1`)
    .bind(endedBy)
    .first<{ quote_id: string; updated_at: string }>();
  if (!first) return null;
  const tag = first.quote_id.slice(2, 10);
  const day = first.updated_at.slice(0, 10);
  const chosen = `SELECT quote_id FROM (${eligibleSql(kind, "AND substr(quote_id, 3, 8) = ?2 AND substr(updated_at, 1, 10) = ?3")} LIMIT ?4)`;
  const results = await db.batch([
    db.prepare("INSERT INTO archive_batches (kind, object_key, ended_to) VALUES (?1, '', '')").bind(kind),
    db
      .prepare(`INSERT INTO archived_ids (id, batch) SELECT ${idBytesSql("quote_id")}, ${LAST_BATCH} FROM (${chosen})`)
      .bind(endedBy, tag, day, limit),
    db.prepare(
      `INSERT INTO archived_ids (id, batch) SELECT ${idBytesSql("execution_id")}, ${LAST_BATCH} FROM executions
       WHERE quote_id IN (${BATCH_QUOTE_IDS.replace("?1", LAST_BATCH)})`,
    ),
    db
      .prepare(
        `UPDATE archive_batches SET
           object_key = 'archive/' || ?1 || '/' || ?2 || '/' || printf('%012d', batch) || '.jsonl',
           ended_to = COALESCE((SELECT MAX(updated_at) FROM quotes
             WHERE quote_id IN (${BATCH_QUOTE_IDS.replace("?1", "archive_batches.batch")})), '')
         WHERE batch = ${LAST_BATCH}
         RETURNING batch, kind, object_key`,
      )
      .bind(tag, day),
  ]);
  const row = results[3]?.results[0] as { batch: number; kind: EndedKind; object_key: string } | undefined;
  if (!row) throw new Error("an archive batch was planned without its row");
  return { batch: row.batch, kind: row.kind, objectKey: row.object_key };
}

/** The batches planned and not yet archived, oldest first: a run finishes them before it plans more. */
export async function plannedArchiveBatches(db: D1Database): Promise<ArchiveBatch[]> {
  const { results } = await db
    .prepare("SELECT batch, kind, object_key FROM archive_batches WHERE state = 0 ORDER BY batch")
    .all<{ batch: number; kind: EndedKind; object_key: string }>();
  return results.map((r) => ({ batch: r.batch, kind: r.kind, objectKey: r.object_key }));
}

/** Tables keyed by a quote, its own row last: D1 enforces their references to it. */
const QUOTE_TABLES = ["offers", "timeline_events", "fills", "executions", "quotes"] as const;

/**
 * Deletes batch `batch`'s quotes with their rows and marks it archived, in one atomic statement batch; its
 * object must be in R2 first. Returns how many quotes left D1 (0 when it was archived already).
 */
export async function archiveBatchDone(db: D1Database, batch: number): Promise<number> {
  const results = await db.batch([
    ...QUOTE_TABLES.map((table) =>
      db.prepare(`DELETE FROM ${table} WHERE quote_id IN (${BATCH_QUOTE_IDS})`).bind(batch),
    ),
    db.prepare("UPDATE archive_batches SET state = 1 WHERE batch = ?1 AND state = 0").bind(batch),
  ]);
  return results[QUOTE_TABLES.length - 1]?.meta.changes ?? 0;
}

/** The object of the archived batch holding quote or execution `id`; null when none does. */
export async function archivedObjectOf(db: D1Database, id: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT b.object_key FROM archived_ids a JOIN archive_batches b ON b.batch = a.batch
       WHERE a.id = ${idBytesSql("?1")} AND b.state >= 1`,
    )
    .bind(id)
    .first<{ object_key: string }>();
  return row?.object_key ?? null;
}

/**
 * From when every list of quotes is complete: the latest time an archived quote ended, so every quote
 * made after it is still in D1; null when no quote was ever archived.
 */
export async function listsCompleteFrom(db: D1Database): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT MAX(t) AS t FROM (
         SELECT MAX(ended_to) AS t FROM archive_batches WHERE kind = 'unsubmitted'
         UNION ALL SELECT MAX(ended_to) FROM archive_batches WHERE kind = 'submitted')`,
    )
    .first<{ t: string | null }>();
  return row?.t ?? null;
}

/**
 * Drops the ids of archived never-submitted batches that ended at or before `endedBy` (ISO 8601), up to
 * `limit` batches: their records stay in R2, no longer answered by id. Returns the batches done.
 */
/**
 * From when the lists over every records database are complete (docs/capacity.md, "Records by corridor"):
 * the latest of theirs, since a quote ended before it may have left any of them.
 */
export async function listsCompleteFromAll(dbs: readonly D1Database[]): Promise<string | null> {
  const each = await Promise.all(dbs.map(listsCompleteFrom));
  return each.reduce<string | null>((latest, t) => (t !== null && (latest === null || t > latest) ? t : latest), null);
}

export async function pruneArchivedIds(db: D1Database, endedBy: string, limit: number): Promise<number> {
  const batches = `SELECT batch FROM archive_batches WHERE kind = 'unsubmitted' AND state = 1 AND ended_to <= ?1
    ORDER BY ended_to LIMIT ?2`;
  const [, moved] = await db.batch([
    db.prepare(`DELETE FROM archived_ids WHERE batch IN (${batches})`).bind(endedBy, limit),
    db.prepare(`UPDATE archive_batches SET state = 2 WHERE batch IN (${batches})`).bind(endedBy, limit),
  ]);
  return moved?.meta.changes ?? 0;
}
