import { resolverKey } from "../ids";
import type { Execution, ExecutionStatus } from "../schemas";
import { blameOf } from "../states";
import { readQuoteRecord } from "./quotes";

/** An execution as D1 holds it: record 2.1 without its quote's lifecycle, with when it was created. */
export type ExecutionRow = Omit<Execution, "lifecycle" | "keeper"> & { createdAt: Execution["updatedAt"] };

export interface ExecutionDbRow {
  execution_id: string;
  quote_id: string;
  status: ExecutionStatus;
  reason: string | null;
  tx_hash: string | null;
  submitter: string | null;
  gas_used: string | null;
  resolver: string | null;
  proceeds: string | null;
  taker_pays: string | null;
  keeper_spent: string | null;
  gas_fee_token: string;
  gas_fee_amount: string;
  native_price: number | null;
  created_at: string;
  updated_at: string;
}

/** An execution's columns with what its keeper record takes from its quote, for `FROM executions e JOIN quotes q`. */
export const EXECUTION_RECORD_COLUMNS = "e.*, q.gas_fee_token, q.gas_fee_amount, q.native_price";

async function readExecutionRow(
  db: D1Database,
  executionId: string,
): Promise<(ExecutionRow & Pick<Execution, "keeper">) | null> {
  const r = await db
    .prepare(
      `SELECT ${EXECUTION_RECORD_COLUMNS}
       FROM executions e JOIN quotes q ON q.quote_id = e.quote_id WHERE e.execution_id = ?`,
    )
    .bind(executionId)
    .first<ExecutionDbRow>();
  return r ? executionOfRow(r) : null;
}

/** An execution's stored row as its record shows it, without its quote's lifecycle. */
export function executionOfRow(r: ExecutionDbRow): ExecutionRow & Pick<Execution, "keeper"> {
  return {
    executionId: r.execution_id,
    quoteId: r.quote_id,
    status: r.status,
    reason: r.reason,
    blame: blameOf(r.reason),
    txHash: r.tx_hash,
    submitter: r.submitter,
    gasUsed: r.gas_used,
    resolver: r.resolver,
    proceeds: r.proceeds,
    takerPays: r.taker_pays,
    keeper:
      r.keeper_spent === null
        ? null
        : {
            spent: r.keeper_spent,
            charged: { token: r.gas_fee_token, amount: r.gas_fee_amount },
            nativePrice: r.native_price,
          },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Record 2.1 with its quote's lifecycle; null when there is no such execution. */
export async function readExecutionRecord(db: D1Database, executionId: string): Promise<Execution | null> {
  const row = await readExecutionRow(db, executionId);
  if (!row) return null;
  const { createdAt: _createdAt, ...execution } = row;
  return { ...execution, lifecycle: await readQuoteRecord(db, row.quoteId) };
}

/** A failed fill of a resolver's win that was not its fault (docs/reliability.md, "A resolver's record"). */
export interface UncountedFailure {
  executionId: string;
  quoteId: string;
  status: "failed" | "requote";
  reason: string;
  at: string;
}

/**
 * The last `limit` fills of the resolver's wins that failed, or were requoted, for the taker's or the
 * relay's reason: shown beside its strikes, never counted against it. Read by migration 0013's index.
 */
export async function readUncountedFailures(
  db: D1Database,
  address: string,
  limit: number,
): Promise<UncountedFailure[]> {
  const { results } = await db
    .prepare(
      `SELECT execution_id, quote_id, status, reason, updated_at FROM executions
       WHERE lower(resolver) = ?1 AND status IN ('failed', 'requote')
         AND (reason LIKE 'taker:%' OR reason LIKE 'relay:%')
       ORDER BY updated_at DESC LIMIT ?2`,
    )
    .bind(resolverKey(address), limit)
    .all<{
      execution_id: string;
      quote_id: string;
      status: "failed" | "requote";
      reason: string;
      updated_at: string;
    }>();
  return results.map((r) => ({
    executionId: r.execution_id,
    quoteId: r.quote_id,
    status: r.status,
    reason: r.reason,
    at: r.updated_at,
  }));
}

/** The same over every records database (docs/capacity.md, "Records by corridor"): the newest `limit` of all. */
export async function readUncountedFailuresOver(
  dbs: readonly D1Database[],
  address: string,
  limit: number,
): Promise<UncountedFailure[]> {
  const each = await Promise.all(dbs.map((db) => readUncountedFailures(db, address, limit)));
  return each
    .flat()
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, limit);
}
