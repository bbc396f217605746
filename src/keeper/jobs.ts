import { due, next, ranAt, type ScheduleRow, sooner } from "../schedule";
import { log } from "./port";

/**
 * The keeper object's periodic jobs, all from its one alarm (docs/settlement.md, "The keeper's alarm"):
 * - `indexer` every second while a transaction is followed;
 * - `prune` of expired Idempotency-Keys every hour;
 * - `expire`: open quotes past their expiry recorded as expired, every 10 s, so D1 is true unread.
 * - `limits`: the limit job (src/keeper/limit-job.ts) every 5 s while limit orders are on.
 * Every job is idempotent: alarms are at-least-once, and a pass repeated changes nothing.
 */
export type KeeperJob = "indexer" | "prune" | "expire" | "limits";

export const INDEX_EVERY_MS = 1_000;
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
export const EXPIRE_EVERY_MS = 10_000;
/** How often the keeper auctions open limit orders (spec: `LIMIT_POLL_MS`). */
export const LIMIT_POLL_MS = 5_000;

export interface JobSpec {
  run(): Promise<unknown>;
  /** Whether the row stays after a run; read right after it, with no wait in between. */
  again(): boolean;
}

export type KeeperJobs = Record<KeeperJob, JobSpec>;

interface ScheduleDbRow extends Record<string, SqlStorageValue> {
  job: KeeperJob;
  every_ms: number;
  next_at: number;
}

/** The schedule table in the keeper object's SQLite. */
export class ScheduleTable {
  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS keeper_schedule (
        job       TEXT PRIMARY KEY,
        every_ms  INTEGER NOT NULL,
        next_at   INTEGER NOT NULL
      );
    `);
  }

  rows(): ScheduleRow<KeeperJob>[] {
    return this.storage.sql
      .exec<ScheduleDbRow>("SELECT job, every_ms, next_at FROM keeper_schedule")
      .toArray()
      .map((r) => ({ job: r.job, everyMs: r.every_ms, nextAt: r.next_at }));
  }

  /** Schedules `row`, or keeps the job's current time when that is sooner. */
  soon(row: ScheduleRow<KeeperJob>): void {
    const kept = sooner(this.rows(), row).find((r) => r.job === row.job) ?? row;
    this.put(kept);
  }

  /** Schedules `row` when its job has no row yet. */
  ensure(row: ScheduleRow<KeeperJob>): void {
    if (!this.rows().some((r) => r.job === row.job)) this.put(row);
  }

  put(row: ScheduleRow<KeeperJob>): void {
    this.storage.sql.exec(
      `INSERT INTO keeper_schedule (job, every_ms, next_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (job) DO UPDATE SET every_ms = ?2, next_at = ?3`,
      row.job,
      row.everyMs,
      row.nextAt,
    );
  }

  remove(job: KeeperJob): void {
    this.storage.sql.exec("DELETE FROM keeper_schedule WHERE job = ?", job);
  }

  /** When the alarm should fire next, or null. */
  nextAt(): number | null {
    return next(this.rows());
  }
}

/**
 * One alarm: runs the due jobs one after another, each rescheduled a period after it ran or removed when
 * it has nothing left to do. A job that throws is logged and tried again a period later.
 */
export async function runDue(table: ScheduleTable, jobs: KeeperJobs, now: () => number): Promise<void> {
  for (const row of due(table.rows(), now())) {
    const job = jobs[row.job];
    try {
      await job.run();
    } catch (e) {
      log("job_failed", { job: row.job, error: String(e) });
    }
    if (job.again()) table.put(ranAt(row, now()));
    else table.remove(row.job);
  }
}
