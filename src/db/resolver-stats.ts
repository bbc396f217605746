/** The counters kept per resolver (migrations/0002_resolver_stats.sql). */
export interface ResolverStats {
  address: string;
  asked: number;
  answered: number;
  won: number;
  submitted: number;
  settled: number;
  updatedAt: string;
}

export type StatCounts = Partial<Record<"asked" | "answered" | "won" | "submitted" | "settled", number>>;

/**
 * Adds `counts` to a resolver's counters. `guard`, an SQL condition over constants and the bound
 * `?8`, makes the increment happen only once for a step that may be written again after a restart.
 */
export function countStatement(
  db: D1Database,
  address: string,
  counts: StatCounts,
  at: string,
  guard: { sql: string; param: string } | null = null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO resolver_stats (address, asked, answered, won, submitted, settled, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${guard ? guard.sql : "1"}
       ON CONFLICT (address) DO UPDATE SET
         asked = asked + excluded.asked,
         answered = answered + excluded.answered,
         won = won + excluded.won,
         submitted = submitted + excluded.submitted,
         settled = settled + excluded.settled,
         updated_at = excluded.updated_at`,
    )
    .bind(
      address.toLowerCase(),
      counts.asked ?? 0,
      counts.answered ?? 0,
      counts.won ?? 0,
      counts.submitted ?? 0,
      counts.settled ?? 0,
      at,
      ...(guard ? [guard.param] : []),
    );
}

/**
 * One auction's part in each asked resolver's counters: asked, answered (a reply inside the window), won.
 * Statements, so the auction can store them in the same batch as its quote.
 */
export function countAuctionStatements(
  db: D1Database,
  auction: { asked: Iterable<string>; answered: ReadonlySet<string>; winner: string | null },
  at: string,
): D1PreparedStatement[] {
  const winner = auction.winner?.toLowerCase() ?? null;
  return [...auction.asked].map((address) => {
    const a = address.toLowerCase();
    return countStatement(
      db,
      a,
      { asked: 1, answered: auction.answered.has(a) ? 1 : 0, won: a === winner ? 1 : 0 },
      at,
    );
  });
}

export async function readResolverStats(db: D1Database, address: string): Promise<ResolverStats | null> {
  return db
    .prepare(
      `SELECT address, asked, answered, won, submitted, settled, updated_at AS updatedAt
       FROM resolver_stats WHERE address = ?`,
    )
    .bind(address.toLowerCase())
    .first<ResolverStats>();
}
