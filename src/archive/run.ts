import type { RelayConfig } from "../config";
import {
  type ArchiveBatch,
  archiveBatchDone,
  type EndedKind,
  planArchiveBatch,
  plannedArchiveBatches,
  pruneArchivedIds,
  readBatchRecords,
} from "../db";

/**
 * The archive job (docs/operations.md, "Archive"): ended quotes past what D1 keeps of them are written to
 * R2, a batch of one corridor's day to an object of JSON lines, then deleted from D1. Each batch goes
 * planned (D1), put (R2), archived (D1), each step whole, and a run first finishes the batches a stopped
 * run left planned, under their planned keys: a restart, an eviction or a crash anywhere loses no record
 * and writes none to two objects.
 */

/** What the job writes to and reads from: the `ARCHIVE` bucket. */
export type ArchiveBucket = Pick<R2Bucket, "put" | "get">;

/** Quotes one batch holds at most: an object of a few hundred kB, read whole when one of them is asked for. */
export const ARCHIVE_BATCH = 200;
/** Batches of each kind one run archives at most, so one run never holds D1 long. */
export const ARCHIVE_BATCHES = 10;
/** Batches whose ids one run drops at most. */
const PRUNE_BATCHES = 50;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What one run archived (quotes per batch), whether it stopped with more to do, and the batches whose ids it dropped. */
export interface ArchiveRun {
  unsubmitted: number[];
  submitted: number[];
  more: boolean;
  idsDropped: number;
}

/**
 * The times at or before which an ended quote of each kind leaves D1 at `now` (docs/operations.md,
 * "Retention"): `unfilledHours` for one never submitted, `filledDays` for one submitted; and when the ids of
 * archived never-submitted quotes stop being answered, `unfilledDays`.
 */
export function archiveCutoffs(
  retention: RelayConfig["retention"],
  now: number,
): Record<EndedKind, string> & { ids: string } {
  return {
    unsubmitted: new Date(now - retention.unfilledHours * HOUR_MS).toISOString(),
    submitted: new Date(now - retention.filledDays * DAY_MS).toISOString(),
    ids: new Date(now - retention.unfilledDays * DAY_MS).toISOString(),
  };
}

/** The JSON lines of an object: one archived quote a line. */
const jsonLines = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

/** Puts batch `b`'s records under its key, then deletes them from D1; the quotes that left D1. */
export async function archiveBatch(db: D1Database, bucket: ArchiveBucket, b: ArchiveBatch): Promise<number> {
  const records = await readBatchRecords(db, b.batch);
  if (records.length > 0)
    await bucket.put(b.objectKey, jsonLines(records), { httpMetadata: { contentType: "application/x-ndjson" } });
  return archiveBatchDone(db, b.batch);
}

/**
 * One run: the batches left planned, then of each kind batches of the oldest quotes past their cutoff until
 * none is due or `batches` of them are done, then the ids past theirs. Repeated, it finds what is left.
 */
export async function archivePass(
  db: D1Database,
  bucket: ArchiveBucket,
  cutoffs: ReturnType<typeof archiveCutoffs>,
  sizes = { batch: ARCHIVE_BATCH, batches: ARCHIVE_BATCHES },
): Promise<ArchiveRun> {
  const run: ArchiveRun = { unsubmitted: [], submitted: [], more: false, idsDropped: 0 };
  for (const planned of await plannedArchiveBatches(db))
    run[planned.kind].push(await archiveBatch(db, bucket, planned));
  for (const kind of ["unsubmitted", "submitted"] as const) {
    for (let i = 0; ; i++) {
      if (i === sizes.batches) {
        run.more = true;
        break;
      }
      const planned = await planArchiveBatch(db, kind, cutoffs[kind], sizes.batch);
      if (!planned) break;
      run[kind].push(await archiveBatch(db, bucket, planned));
    }
  }
  run.idsDropped = await pruneArchivedIds(db, cutoffs.ids, PRUNE_BATCHES);
  if (run.idsDropped === PRUNE_BATCHES) run.more = true;
  return run;
}

/**
 * One run over every records database (docs/capacity.md, "Records by corridor"), each its own pass at once:
 * what each archived, and `more` when any left a backlog.
 */
export async function archivePassOver(
  dbs: readonly D1Database[],
  bucket: ArchiveBucket,
  cutoffs: ReturnType<typeof archiveCutoffs>,
): Promise<ArchiveRun> {
  const runs = await Promise.all(dbs.map((db) => archivePass(db, bucket, cutoffs)));
  return {
    unsubmitted: runs.flatMap((r) => r.unsubmitted),
    submitted: runs.flatMap((r) => r.submitted),
    more: runs.some((r) => r.more),
    idsDropped: runs.reduce((n, r) => n + r.idsDropped, 0),
  };
}
