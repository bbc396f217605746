import type { FillKind } from "../types";

/** How many of a chain's last settled fills the gas median is taken over (docs/api.md, "The gas fee"). */
export const GAS_SAMPLE = 50;

/**
 * The `gasUsed` of the chain's last `GAS_SAMPLE` settled fills of `kind`, newest first (the index
 * `executions_settled` walks them by time).
 */
export async function recentGasUsed(db: D1Database, chainId: number, kind: FillKind): Promise<bigint[]> {
  const { results } = await db
    .prepare(
      `SELECT e.gas_used FROM executions e JOIN quotes q ON q.quote_id = e.quote_id
       WHERE e.status = 'settled' AND e.gas_used IS NOT NULL AND q.chain_id = ?1 AND q.fill_kind = ?2
       ORDER BY e.updated_at DESC LIMIT ?3`,
    )
    .bind(chainId, kind, GAS_SAMPLE)
    .all<{ gas_used: string }>();
  return results.flatMap((r) => (/^\d+$/.test(r.gas_used) ? [BigInt(r.gas_used)] : []));
}
