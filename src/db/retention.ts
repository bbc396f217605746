/**
 * Ended quotes deleted after their retention (docs/operations.md, "Retention"; migrations/0015_retention.sql).
 * A quote goes with every row keyed by it: offers, timeline events, executions (requotes included) and
 * fills. The reliability counters (`resolver_days`) are per resolver and day and stay; so do strikes,
 * which name their quote but are a resolver's history, and limit orders.
 */

/** The two kinds of ended quote, each kept its own number of days. */
export type EndedKind = "unsubmitted" | "submitted";

/**
 * Which quotes are of each kind: the WHERE of its partial index in migrations/0015, spelled the same, so
 * SQLite walks that index in the order the quotes ended.
 */
const KIND_SQL: Record<EndedKind, string> = {
  unsubmitted: "claimed_at IS NULL AND status IN ('expired', 'cancelled', 'failed')",
  submitted: "claimed_at IS NOT NULL AND status IN ('settled', 'failed', 'expired')",
};

/** What one batch deleted, by table. */
export interface DeletedBatch {
  quotes: number;
  offers: number;
  timeline: number;
  executions: number;
  fills: number;
}

/**
 * The quotes of a batch (?1 ended at or before, ?2 how many): the oldest of their kind. A quote whose
 * limit order still follows it (`filling`) is left until the order has moved on.
 */
const batchSql = (kind: EndedKind) =>
  `SELECT quote_id FROM quotes q
   WHERE ${KIND_SQL[kind]} AND updated_at <= ?1
     AND NOT EXISTS (SELECT 1 FROM limit_orders l WHERE l.quote_id = q.quote_id AND l.status = 'filling')
   ORDER BY updated_at, quote_id LIMIT ?2`;

/** The tables keyed by a quote, its own row last: D1 enforces their references to it. */
const TABLES = [
  ["offers", "offers"],
  ["timeline", "timeline_events"],
  ["fills", "fills"],
  ["executions", "executions"],
  ["quotes", "quotes"],
] as const;

/**
 * Deletes the oldest `limit` quotes of `kind` that ended at or before `endedBy` (ISO 8601), with their
 * rows, in one atomic batch. Every statement selects the same quotes: the selection reads only the quote
 * rows (and limit orders), which the batch's earlier statements do not touch, in one index order.
 */
export async function deleteEndedQuotes(
  db: D1Database,
  kind: EndedKind,
  endedBy: string,
  limit: number,
): Promise<DeletedBatch> {
  const ids = batchSql(kind);
  const results = await db.batch(
    TABLES.map(([, table]) => db.prepare(`DELETE FROM ${table} WHERE quote_id IN (${ids})`).bind(endedBy, limit)),
  );
  const deleted = { quotes: 0, offers: 0, timeline: 0, executions: 0, fills: 0 };
  TABLES.forEach(([name], i) => {
    deleted[name] = results[i]?.meta.changes ?? 0;
  });
  return deleted;
}
