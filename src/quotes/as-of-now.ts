import { expireIfDue, readExecutionRecord, readQuoteClaim } from "../db";
import type { Execution, Quote } from "../schemas";
import { isOpen } from "../states";

/**
 * Reads as of now (docs/api.md, "Quote lifetime"): an open quote past its expiry is recorded `expired`
 * before it is shown, by whichever record it is read through, so a quote never reads `expired` through
 * one route and `signed` through another.
 */

const dueToExpire = (quote: Pick<Quote, "status" | "expiresAt"> | null, now: string) =>
  quote !== null && isOpen(quote.status) && quote.expiresAt <= now;

/** A quote's record as of now. */
export async function quoteAsOfNow(db: D1Database, quoteId: string): Promise<Quote | null> {
  return (await quoteClaimAsOfNow(db, quoteId))?.quote ?? null;
}

/** A quote's record as of now, and whether the keeper holds a claim on it. */
export async function quoteClaimAsOfNow(
  db: D1Database,
  quoteId: string,
): Promise<{ quote: Quote; claimed: boolean } | null> {
  const read = await readQuoteClaim(db, quoteId);
  const now = new Date().toISOString();
  if (!read || !dueToExpire(read.quote, now)) return read;
  await expireIfDue(db, quoteId, now);
  return readQuoteClaim(db, quoteId);
}

/** An execution's record as of now, its quote's lifecycle as `quoteAsOfNow` shows it. */
export async function executionAsOfNow(db: D1Database, executionId: string): Promise<Execution | null> {
  const execution = await readExecutionRecord(db, executionId);
  const now = new Date().toISOString();
  if (!execution || !dueToExpire(execution.lifecycle, now)) return execution;
  await expireIfDue(db, execution.quoteId, now);
  return readExecutionRecord(db, executionId);
}
