import type { RelayConfig } from "../config";
import { type DeletedBatch, deleteEndedQuotes, type EndedKind } from "../db";

/** Quotes one statement batch deletes at most: one batch holds D1 for a short while only. */
export const RETENTION_BATCH = 500;
/** Batches of each kind one run deletes at most, so one run never holds D1 long. */
export const RETENTION_BATCHES = 4;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What one run of the retention job deleted, batch by batch, and whether it stopped with more to delete. */
export interface RetentionRun {
  unsubmitted: DeletedBatch[];
  submitted: DeletedBatch[];
  more: boolean;
}

/**
 * The times at or before which an ended quote of each kind is past its retention at `now`
 * (docs/operations.md, "Retention"): `unfilledDays` for one never submitted, `filledDays` for one submitted.
 */
export function retentionCutoffs(retention: RelayConfig["retention"], now: number): Record<EndedKind, string> {
  return {
    unsubmitted: new Date(now - retention.unfilledDays * DAY_MS).toISOString(),
    submitted: new Date(now - retention.filledDays * DAY_MS).toISOString(),
  };
}

/**
 * One run of the retention job: for each kind, batches of the oldest quotes past their retention until a
 * batch comes back short or the run has deleted `batches` of them. Idempotent: a run repeated finds what
 * is left.
 */
export async function retainPass(
  db: D1Database,
  retention: RelayConfig["retention"],
  now: number,
  sizes = { batch: RETENTION_BATCH, batches: RETENTION_BATCHES },
): Promise<RetentionRun> {
  const cutoffs = retentionCutoffs(retention, now);
  const run: RetentionRun = { unsubmitted: [], submitted: [], more: false };
  for (const kind of ["unsubmitted", "submitted"] as const) {
    for (let i = 0; i < sizes.batches; i++) {
      const deleted = await deleteEndedQuotes(db, kind, cutoffs[kind], sizes.batch);
      run[kind].push(deleted);
      if (deleted.quotes < sizes.batch) break;
      if (i === sizes.batches - 1) run.more = true;
    }
  }
  return run;
}
