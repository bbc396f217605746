import type { ExecutionRow } from "../../src/db/executions";

/** An execution row as it is, for tests that seed executions the keeper did not make. */
export function insertExecutionStatement(db: D1Database, e: ExecutionRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO executions (execution_id, quote_id, status, reason, tx_hash, submitter, gas_used, resolver,
         proceeds, taker_pays, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      e.executionId,
      e.quoteId,
      e.status,
      e.reason,
      e.txHash,
      e.submitter,
      e.gasUsed,
      e.resolver,
      e.proceeds,
      e.takerPays,
      e.createdAt,
      e.updatedAt,
    );
}
