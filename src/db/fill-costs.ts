import type { FillKind } from "../types";

/** How many of a chain's last settled fills the gas median is taken over (docs/api.md, "The gas fee"). */
export const GAS_SAMPLE = 50;

/**
 * The `gasUsed` of the chain's last `GAS_SAMPLE` settled fills of `kind`, newest first (the index
 * `executions_settled` walks them by time): of those that carried a permit when `permit` is true, of
 * those that did not when false (docs/settlement.md, "The gas of each kind of fill"), of every one when
 * null. Each as a fill of one leg: a fill of several makers less `perLeg` for each leg past the first (its
 * `fills`, one per leg; docs/legs.md), so the median prices one leg and the legs are added once.
 */
export async function recentGasUsed(
  db: D1Database,
  chainId: number,
  kind: FillKind,
  permit: boolean | null = null,
  perLeg = 0n,
): Promise<bigint[]> {
  const carried = permit === null ? "" : "AND e.fill_permit = ?4";
  const legs = "(SELECT COUNT(*) FROM fills f WHERE f.quote_id = e.quote_id AND f.tx_hash = e.tx_hash)";
  const { results } = await db
    .prepare(
      `SELECT e.gas_used, ${legs} AS legs FROM executions e JOIN quotes q ON q.quote_id = e.quote_id
       WHERE e.status = 'settled' AND e.gas_used IS NOT NULL AND q.chain_id = ?1 AND q.fill_kind = ?2 ${carried}
       ORDER BY e.updated_at DESC LIMIT ?3`,
    )
    .bind(chainId, kind, GAS_SAMPLE, ...(permit === null ? [] : [permit ? 1 : 0]))
    .all<{ gas_used: string; legs: number }>();
  return results.flatMap((r) =>
    /^\d+$/.test(r.gas_used) ? [BigInt(r.gas_used) - BigInt(Math.max(r.legs - 1, 0)) * perLeg] : [],
  );
}
