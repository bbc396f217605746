/**
 * The relay's own fills of one resolver that an auction's view of its balance did not count (docs/settlement.md,
 * "When the relay spent the winner's balance"): what they paid out of one token on one chain, other than one
 * quote's, still in flight at the auction or settled since. D1 knows the executions it has recorded (read by
 * resolver and time, migrations/0025_executions_by_resolver.sql); the keeper names those it has in flight, whose
 * records may still be on their way (`inFlight`).
 */
export interface RelayFillsAsk {
  resolver: string;
  chainId: number;
  token: string;
  /** ISO timestamp of the auction: fills settled before it were in its view (the chain read, or the corridor's holds). */
  since: string;
  /** ISO timestamp: no fill made before it can have been in flight at the auction (its quote had expired). */
  madeAfter: string;
  /** The quote whose shortfall is being explained: its own fill does not explain it. */
  quoteId: string;
  /** The quotes whose fills the keeper has in flight now, or landed since the auction. */
  inFlight: readonly string[];
}

/** The most fills read: more than a corridor fills for one resolver in one quote's lifetime. */
const MOST_FILLS = 1_000;

/** What those fills took of `token`: the sum of their winning outputs, each quote once. */
export async function relayFillsSince(db: D1Database, ask: RelayFillsAsk): Promise<bigint> {
  const { results } = await db
    .prepare(
      `SELECT o.output_amount AS amount
       FROM offers o JOIN quotes q ON q.quote_id = o.quote_id
       WHERE o.won = 1 AND o.resolver = ?1 COLLATE NOCASE AND o.quote_id <> ?4
         AND q.chain_id = ?5 AND q.buy_token = ?6 COLLATE NOCASE
         AND (o.quote_id IN (SELECT value FROM json_each(?7))
           OR o.quote_id IN (
             SELECT e.quote_id FROM executions e
             WHERE e.resolver = ?1 COLLATE NOCASE AND e.created_at >= ?2
               AND (e.status = 'submitted' OR (e.status = 'settled' AND e.updated_at >= ?3))))
       LIMIT ${MOST_FILLS}`,
    )
    .bind(ask.resolver, ask.madeAfter, ask.since, ask.quoteId, ask.chainId, ask.token, JSON.stringify(ask.inFlight))
    .all<{ amount: string }>();
  return results.reduce((sum, r) => sum + BigInt(r.amount), 0n);
}

/** The same over every records database (docs/capacity.md, "Records by corridor"): a resolver's fills on every corridor. */
export async function relayFillsSinceOver(dbs: readonly D1Database[], ask: RelayFillsAsk): Promise<bigint> {
  return (await Promise.all(dbs.map((db) => relayFillsSince(db, ask)))).reduce((sum, n) => sum + n, 0n);
}
