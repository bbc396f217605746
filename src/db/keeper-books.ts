/** One settled fill's books as D1 keeps them: what the keeper spent and what its quote charged. */
export interface SettledFillBooks {
  /** Native base units (wei, lamports), as recorded from the receipt. */
  spent: string;
  charged: { token: string; amount: string };
  /** Whole charged tokens per whole native unit the fee was priced at; null for the fallback fee. */
  nativePrice: number | null;
}

/** A fill's books and when it settled (ISO 8601): the order of a list merged over the records databases. */
type SettledFill = SettledFillBooks & { at: string };

/**
 * The chain's fills settled at or after `since` (ISO time) with their books, newest first, at most
 * `limit` (docs/settlement.md, "The keeper's books"). The partial index `executions_settled` walks
 * only the window's settled executions; fills settled before their spend was recorded are left out.
 */
export async function settledFillsSince(
  db: D1Database,
  chainId: number,
  since: string,
  limit: number,
): Promise<SettledFill[]> {
  const { results } = await db
    .prepare(
      `SELECT e.keeper_spent, e.updated_at, q.gas_fee_token, q.gas_fee_amount, q.native_price
       FROM executions e JOIN quotes q ON q.quote_id = e.quote_id
       WHERE e.status = 'settled' AND e.updated_at >= ?2 AND e.keeper_spent IS NOT NULL AND q.chain_id = ?1
       ORDER BY e.updated_at DESC LIMIT ?3`,
    )
    .bind(chainId, since, limit)
    .all<{
      keeper_spent: string;
      updated_at: string;
      gas_fee_token: string;
      gas_fee_amount: string;
      native_price: number | null;
    }>();
  return results.map((r) => ({
    spent: r.keeper_spent,
    charged: { token: r.gas_fee_token, amount: r.gas_fee_amount },
    nativePrice: r.native_price,
    at: r.updated_at,
  }));
}

/** The same over every records database (docs/capacity.md, "Records by corridor"): the newest `limit` of all. */
export async function settledFillsSinceOver(
  dbs: readonly D1Database[],
  chainId: number,
  since: string,
  limit: number,
): Promise<SettledFillBooks[]> {
  const each = await Promise.all(dbs.map((db) => settledFillsSince(db, chainId, since, limit)));
  return each
    .flat()
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, limit);
}
