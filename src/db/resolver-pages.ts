import { type Totals, totalsByAddress, totalsOfSql } from "./resolver-days";
import { type ResolverDbRow, type ResolverRow, toRow } from "./resolvers";

/**
 * The resolver directory a page at a time (docs/api.md, "Nodes and resolvers"), in the order of its
 * primary key, the lowercase address, which never changes: a page starts after the last address of the
 * one before, so paging repeats and skips nothing. Every read goes through an index (migrations/0016).
 */

export interface DirectoryPageQuery {
  /** The last address of the previous page (lowercase); null for the first page. */
  after: string | null;
  limit: number;
  /**
   * Only resolvers active at or after this time (ISO 8601): their last heartbeat written, else their
   * registration, or one of `live`. Null lists every resolver.
   */
  activeSince: string | null;
  /** Lowercase addresses of connected nodes that count as active whatever D1 holds of them. */
  live: readonly string[];
  /** The first day of the reliability window: each resolver's counters are summed from it on. */
  windowStart: string;
}

export interface DirectoryPage {
  rows: ResolverRow[];
  /** The page's resolvers' reliability counters over the window, by lowercase address. */
  totals: Map<string, Totals>;
  /** How many resolvers were left out as inactive (0 when every resolver is listed). */
  inactive: number;
}

/** When a resolver was last active, as migrations/0016 indexes it. */
const ACTIVITY = "COALESCE(last_seen, registered_at)";

/** A page's addresses: ?1 active since (or NULL), ?2 live addresses (JSON), ?3 after, ?4 limit. */
const pageSql = (activeOnly: boolean, columns: string) =>
  activeOnly
    ? `SELECT ${columns} FROM resolvers WHERE address > ?3 AND address IN (
         SELECT address FROM resolvers WHERE ${ACTIVITY} >= ?1 UNION SELECT value FROM json_each(?2))
       ORDER BY address LIMIT ?4`
    : `SELECT ${columns} FROM resolvers WHERE address > ?3 ORDER BY address LIMIT ?4`;

/** The resolvers left out (?1 active since, ?2 live addresses): never active in time, and not connected. */
const INACTIVE_SQL = `SELECT COUNT(*) AS n FROM resolvers
  WHERE (${ACTIVITY} IS NULL OR ${ACTIVITY} < ?1) AND address NOT IN (SELECT value FROM json_each(?2))`;

/** A page of the directory with its resolvers' counters and the inactive count, in one round trip. */
export async function readDirectoryPage(db: D1Database, q: DirectoryPageQuery): Promise<DirectoryPage> {
  const activeOnly = q.activeSince !== null;
  const page = [q.activeSince, JSON.stringify(q.live), q.after ?? "", q.limit] as const;
  const statements = [
    db.prepare(pageSql(activeOnly, "*")).bind(...page),
    db.prepare(totalsOfSql(pageSql(activeOnly, "address"), "?5")).bind(...page, q.windowStart),
    ...(activeOnly ? [db.prepare(INACTIVE_SQL).bind(q.activeSince, JSON.stringify(q.live))] : []),
  ];
  const [rows, totals, inactive] = (await db.batch(statements)) as [
    D1Result<ResolverDbRow>,
    D1Result<Totals & { address: string }>,
    D1Result<{ n: number }> | undefined,
  ];
  return {
    rows: rows.results.map(toRow),
    totals: totalsByAddress(totals.results),
    inactive: inactive?.results[0]?.n ?? 0,
  };
}
