import type { ExecutionStatus } from "../schemas";
import { EXECUTION_TRANSITIONS, QUOTE_MOVES, type QuoteMove, type QuoteMoveName, statusSql } from "../states";

/**
 * The one writer of a quote's status in D1 (docs/api.md, "Quote lifetime"): every statement that moves a
 * quote, the keeper's settlement steps (src/db/settlement.ts), the taker's cancel and the expiry
 * (src/db/quote-status.ts), is built here from its row of `QUOTE_MOVES` (src/states/quote-states.ts), as
 * src/db/limit-moves.ts builds a limit order's from `LIMIT_MOVES`; and of its execution's, from
 * `EXECUTION_TRANSITIONS`.
 */

/**
 * `UPDATE quotes SET status = <to>, <set> WHERE status IN (<from>) AND <where>` for move `name`; a move
 * that leaves the status (`to` null, as `final`) sets only `set`, on the same condition.
 */
export function quoteMoveSql(name: QuoteMoveName, set: string, where: string): string {
  const { from, to }: QuoteMove = QUOTE_MOVES[name];
  const sets = to === null ? set : `status = '${to}', ${set}`;
  return `UPDATE quotes SET ${sets} WHERE status IN (${statusSql(from)}) AND ${where}`;
}

/** The condition of a statement that goes with move `name` (its timeline events): the quote is where it applies. */
export const inMoveFrom = (name: QuoteMoveName) => `status IN (${statusSql(QUOTE_MOVES[name].from)})`;

/**
 * `UPDATE executions SET status = <to>, <set> WHERE status IN (<every status that may become to>) AND
 * <where>`: an execution's move (the `execution` of a row of `QUOTE_MOVES`), on the condition its state
 * machine gives it.
 */
export function executionMoveSql(to: ExecutionStatus, set: string, where: string): string {
  const from = (Object.keys(EXECUTION_TRANSITIONS) as ExecutionStatus[]).filter((s) =>
    EXECUTION_TRANSITIONS[s].includes(to),
  );
  return `UPDATE executions SET status = '${to}', ${set} WHERE status IN (${statusSql(from)}) AND ${where}`;
}
