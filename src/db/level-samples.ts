import { resolverKey } from "../ids";

/**
 * The slippage of firm bids against their nodes' own price ladders (migrations/0019_level_slippage.sql;
 * docs/reliability.md, "Honest levels"). Times are unix ms.
 */

export interface LevelSampleRow {
  resolver: string;
  quoteId: string;
  slippageBps: number;
  at: number;
}

/**
 * One statement that stores an auction's samples (a JSON array that SQLite unpacks, as a quote's offers);
 * a sample already stored for the quote stays as it was.
 */
export function levelSamplesStatement(db: D1Database, rows: readonly LevelSampleRow[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO level_samples (resolver, quote_id, slippage_bps, at)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?1) WHERE true
       ON CONFLICT DO NOTHING`,
    )
    .bind(JSON.stringify(rows.map((r) => [resolverKey(r.resolver), r.quoteId, r.slippageBps, r.at])));
}

/** The resolver's slippage samples since `since` (ms). */
export async function readLevelSlippage(db: D1Database, address: string, since: number): Promise<number[]> {
  const { results } = await db
    .prepare("SELECT slippage_bps FROM level_samples WHERE resolver = ? AND at >= ?")
    .bind(resolverKey(address), since)
    .all<{ slippage_bps: number }>();
  return results.map((r) => r.slippage_bps);
}

/** Deletes the samples older than `before` (ms): the record looks back 7 days only. */
export async function pruneLevelSamples(db: D1Database, before: number): Promise<void> {
  await db.prepare("DELETE FROM level_samples WHERE at < ?").bind(before).run();
}

/**
 * The resolvers whose samples since `since` (ms) number at least `minSamples` and whose median (nearest
 * rank) is above `aboveBps`: fewer than half of them, rounded up, at or under it.
 */
export async function readSloppyLevels(
  db: D1Database,
  since: number,
  minSamples: number,
  aboveBps: number,
): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT resolver FROM level_samples WHERE at >= ?1 GROUP BY resolver
       HAVING COUNT(*) >= ?2 AND SUM(slippage_bps <= ?3) < (COUNT(*) + 1) / 2`,
    )
    .bind(since, minSamples, aboveBps)
    .all<{ resolver: string }>();
  return results.map((r) => r.resolver);
}
