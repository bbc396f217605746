import { type ArchiveBucket, type ArchiveRun, archiveCutoffs, archivePassOver } from "../archive";
import type { RelayConfig } from "../config";
import { expireAllDue, moveCounts, pruneIdempotencyKeys, pruneLevelDays, pruneWrittenBehind } from "../db";
import { levelsSinceDay } from "../levels";
import { iso } from "./iso";
import { keeperLog } from "./keeper-log";

/**
 * The leader's upkeep of D1 (docs/settlement.md, "The keeper's alarm"), jobs of its schedule: none of them
 * touches a chain, so they run in the leader and not in a chain's keeper.
 */

/**
 * Deletes the Idempotency-Keys past their retention, the write-behind ids past theirs, and the days of
 * level slippage counts before the record's window.
 */
export async function pruneKeys(db: D1Database, now: number): Promise<void> {
  await Promise.all([
    pruneIdempotencyKeys(db, iso(now)),
    pruneWrittenBehind(db, now),
    pruneLevelDays(db, levelsSinceDay(now)),
  ]).catch((e: unknown) => keeperLog.error("prune_failed", { error: String(e) }));
}

/**
 * Archives ended quotes past the configuration's `retention` to R2 and deletes them from D1, a few bounded
 * batches at a time in each records database `dbs` (docs/operations.md, "Retention" and "Archive");
 * `more` says a backlog is left for the next run.
 */
export async function retain(
  dbs: readonly D1Database[],
  bucket: ArchiveBucket,
  config: RelayConfig,
  now: number,
): Promise<ArchiveRun> {
  const run = await archivePassOver(dbs, bucket, archiveCutoffs(config.retention, now));
  const count = (batches: number[]) => batches.reduce((n, b) => n + b, 0);
  const [unsubmitted, submitted] = [count(run.unsubmitted), count(run.submitted)];
  if (unsubmitted + submitted + run.idsDropped > 0)
    keeperLog.info("quotes_archived", { unsubmitted, submitted, idsDropped: run.idsDropped, more: run.more });
  return run;
}

/** Records every open quote past its expiry as expired, in each records database `dbs` (docs/settlement.md, "The keeper's alarm"). */
export async function expireQuotes(dbs: readonly D1Database[], now: number): Promise<void> {
  const expired = (await Promise.all(dbs.map((db) => expireAllDue(db, iso(now))))).reduce((n, e) => n + e, 0);
  if (expired > 0) keeperLog.info("quotes_expired", { expired });
}

/**
 * Moves the resolvers' counts each records database other than `main` holds into `main` (src/db/count-moves.ts;
 * docs/capacity.md, "Records by corridor"), where standing and the resolver pages read them.
 */
export async function moveCountsToDb(dbs: readonly D1Database[], main: D1Database, now: number): Promise<void> {
  const others = dbs.filter((db) => db !== main);
  const moved = (await Promise.all(others.map((db) => moveCounts(db, main, iso(now))))).reduce((n, m) => n + m, 0);
  if (moved > 0) keeperLog.info("counts_moved", { rows: moved });
}
