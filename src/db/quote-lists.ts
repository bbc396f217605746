import { resolverKey } from "../ids";
import type { QuoteStatus, QuoteSummary } from "../schemas";
import { OPEN_SQL } from "../states";
import type { FillDbRow, QuoteDbRow, QuoteExecutionDbRow } from "./quote-db-rows";
import { EXECUTION_COLUMNS, FILL_COLUMNS, fill, quoteExecution, recordFields, rows } from "./quotes";

/**
 * Lists of quotes (docs/api.md, "Lists of quotes"): a taker's, a resolver's wins, or every quote, newest
 * first, each with its status as of now and without its offers and timeline.
 */

export interface QuoteListQuery {
  /** A taker's quotes, a resolver's wins (its identity address, compared without case), or every quote. */
  by: "taker" | "resolver" | "all";
  address: string;
  chainId: number | null;
  /** The status as of `now`. */
  status: QuoteStatus | null;
  /** The last quote of the previous page. */
  after: { quotedAt: string; quoteId: string } | null;
  limit: number;
  now: string;
}

/** A quote's status as of `?1` (now): an open quote past its expiry reads `expired`, as a read would record it. */
const STATUS_NOW = `CASE WHEN status IN (${OPEN_SQL}) AND expires_at <= ?1 THEN 'expired' ELSE status END`;

/** The page's query: ?1 now, ?2 the address, ?3 and ?4 the position, ?5 chainId, ?6 status, ?7 limit. */
export function quoteListSql(by: QuoteListQuery["by"]): string {
  const owner = { taker: "taker = ?2", resolver: "lower(resolver) = ?2", all: "?2 IS NULL" }[by];
  return `SELECT *, ${STATUS_NOW} AS status_now FROM quotes
    WHERE ${owner} AND (quoted_at, quote_id) < (?3, ?4)
      AND (?5 IS NULL OR chain_id = ?5) AND (?6 IS NULL OR ${STATUS_NOW} = ?6)
    ORDER BY quoted_at DESC, quote_id DESC
    LIMIT ?7`;
}

/** Past every quote's time and id: where a first page starts. */
const NEWEST = { quotedAt: "9999-12-31T23:59:59.999Z", quoteId: "~" };

/**
 * A page of quotes, newest first, each with its status as of now; the page read by the index of its
 * kind (migrations 0012 and 0014), from the cursor's position on, then its executions and fills in one round trip.
 */
export async function listQuotes(db: D1Database, q: QuoteListQuery): Promise<QuoteSummary[]> {
  const after = q.after ?? NEWEST;
  const { results } = await db
    .prepare(quoteListSql(q.by))
    .bind(
      q.now,
      q.by === "all" ? null : q.by === "taker" ? q.address : resolverKey(q.address),
      after.quotedAt,
      after.quoteId,
      q.chainId,
      q.status,
      q.limit,
    )
    .all<QuoteDbRow & { status_now: QuoteStatus }>();
  if (results.length === 0) return [];
  const ids = JSON.stringify(results.map((r) => r.quote_id));
  const [executions, fills] = await db.batch([
    db
      .prepare(
        `SELECT ${EXECUTION_COLUMNS} FROM executions WHERE quote_id IN (SELECT value FROM json_each(?1))
         ORDER BY created_at, execution_id`,
      )
      .bind(ids),
    db
      .prepare(
        `SELECT ${FILL_COLUMNS} FROM fills WHERE quote_id IN (SELECT value FROM json_each(?1))
         ORDER BY tx_hash, log_index`,
      )
      .bind(ids),
  ]);
  const byQuote = <T extends { quote_id: string }>(list: T[]) => {
    const grouped = new Map<string, T[]>();
    for (const row of list) grouped.set(row.quote_id, [...(grouped.get(row.quote_id) ?? []), row]);
    return grouped;
  };
  const executionsOf = byQuote(rows<QuoteExecutionDbRow>(executions));
  const fillsOf = byQuote(rows<FillDbRow>(fills));
  return results.map((r) => ({
    ...recordFields(r),
    status: r.status_now,
    executions: (executionsOf.get(r.quote_id) ?? []).map(quoteExecution),
    fills: (fillsOf.get(r.quote_id) ?? []).map(fill),
  }));
}

/** What a merged page orders by: newest first by time, then by id, as `quoteListSql` orders a page. */
interface Listed {
  quotedAt: string;
  quoteId: string;
}

/**
 * The first `limit` of pages each newest first, merged newest first (by time, then id, as each database
 * ordered its own): a list over every records database (docs/capacity.md, "Records by corridor") reads
 * `limit` from each and keeps the newest, so the cursor of the last one kept starts the next page in every
 * database.
 */
export function newestFirst<T extends Listed>(pages: readonly (readonly T[])[], limit: number): T[] {
  const later = (a: T, b: T) =>
    a.quotedAt !== b.quotedAt ? (a.quotedAt > b.quotedAt ? -1 : 1) : a.quoteId > b.quoteId ? -1 : 1;
  return pages.flat().sort(later).slice(0, limit);
}

/** A page of quotes over every records database, asked in parallel (one query each), merged newest first. */
export async function listQuotesOver(dbs: readonly D1Database[], q: QuoteListQuery): Promise<QuoteSummary[]> {
  return newestFirst(await Promise.all(dbs.map((db) => listQuotes(db, q))), q.limit);
}
