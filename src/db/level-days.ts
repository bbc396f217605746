import { resolverKey } from "../ids";

/**
 * Honest levels as day histograms (migrations/0020_level_days.sql; docs/reliability.md, "Honest levels"):
 * per resolver, corridor and UTC day (YYYY-MM-DD), how many samples fell in each slippage bucket (its
 * upper bound in bps). A row counts many bids, so the table grows with resolvers, corridors and days, not
 * with bids: the corridors' reads every 10 s and the record's read stay as small as that.
 */

export interface LevelDayRow {
  resolver: string;
  corridor: string;
  day: string;
  bucketBps: number;
  samples: number;
}

/**
 * One statement that adds counts to their days' buckets (a JSON array that SQLite unpacks, as a quote's
 * offers). A D1 batch is atomic, so a batch written again whole after D1 refused it counts once.
 */
export function levelDaysStatement(db: D1Database, rows: readonly LevelDayRow[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO level_days (resolver, corridor, day, bucket_bps, samples)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?1) WHERE true
       ON CONFLICT (resolver, day, corridor, bucket_bps) DO UPDATE SET samples = samples + excluded.samples`,
    )
    .bind(JSON.stringify(rows.map((r) => [resolverKey(r.resolver), r.corridor, r.day, r.bucketBps, r.samples])));
}

/** The resolver's samples per bucket from `sinceDay` on, every corridor's summed. */
export async function readLevelCounts(
  db: D1Database,
  address: string,
  sinceDay: string,
): Promise<{ bucketBps: number; samples: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT bucket_bps AS bucketBps, SUM(samples) AS samples FROM level_days
       WHERE resolver = ?1 AND day >= ?2 GROUP BY bucket_bps`,
    )
    .bind(resolverKey(address), sinceDay)
    .all<{ bucketBps: number; samples: number }>();
  return results;
}

/** Deletes the days before `beforeDay`: the record and the corridors look back 7 days only. */
export async function pruneLevelDays(db: D1Database, beforeDay: string): Promise<void> {
  await db.prepare("DELETE FROM level_days WHERE day < ?").bind(beforeDay).run();
}

/**
 * The resolvers whose samples from `sinceDay` on number at least `minSamples` and whose median (nearest
 * rank) is above `aboveBps`, a bucket's bound: fewer than half of them, rounded up, in the buckets up to it.
 */
export async function readSloppyLevels(
  db: D1Database,
  sinceDay: string,
  minSamples: number,
  aboveBps: number,
): Promise<string[]> {
  const { results } = await sloppyLevelsStatement(db, sinceDay, minSamples, aboveBps).all<{ resolver: string }>();
  return results.map((r) => r.resolver);
}

/** `readSloppyLevels`'s statement, for a reader that wants D1's figures of it (rows read). */
export function sloppyLevelsStatement(
  db: D1Database,
  sinceDay: string,
  minSamples: number,
  aboveBps: number,
): D1PreparedStatement {
  return db
    .prepare(
      `SELECT resolver FROM level_days WHERE day >= ?1 GROUP BY resolver
       HAVING SUM(samples) >= ?2 AND SUM(CASE WHEN bucket_bps <= ?3 THEN samples ELSE 0 END) < (SUM(samples) + 1) / 2`,
    )
    .bind(sinceDay, minSamples, aboveBps);
}
