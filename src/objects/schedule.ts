/**
 * One alarm serving several jobs of an object (docs/architecture.md, "Alarms"; the keeper's in
 * docs/settlement.md, "The keeper's alarm"): each row of a schedule table says when its job runs next and
 * how often it repeats. The alarm runs the due rows and is armed again for the earliest remaining. The
 * functions are pure; `Schedule` keeps the rows in the object's storage.
 */
export interface ScheduleRow<Job extends string = string> {
  job: Job;
  everyMs: number;
  /** Epoch milliseconds. */
  nextAt: number;
}

/** When the alarm should fire next: the earliest row's time, or null when nothing is scheduled. */
export function next(rows: readonly ScheduleRow[]): number | null {
  return rows.reduce<number | null>((min, r) => (min === null || r.nextAt < min ? r.nextAt : min), null);
}

/**
 * The rows to run when the alarm fires at `now`: every row due by then, earliest first. The alarm stands
 * for the earliest row, so an alarm that fires early (a retry, or a test running it) still runs that one.
 */
export function due<Job extends string>(rows: readonly ScheduleRow<Job>[], now: number): ScheduleRow<Job>[] {
  const at = Math.max(now, next(rows) ?? now);
  return rows.filter((r) => r.nextAt <= at).sort((a, b) => a.nextAt - b.nextAt);
}

/** The row after its job ran at `now`: due again one period later. */
export const ranAt = <Job extends string>(row: ScheduleRow<Job>, now: number): ScheduleRow<Job> => ({
  ...row,
  nextAt: now + row.everyMs,
});

/** The table with `row` in it; a row already there for the job keeps whichever time is sooner. */
export function sooner<Job extends string>(
  rows: readonly ScheduleRow<Job>[],
  row: ScheduleRow<Job>,
): ScheduleRow<Job>[] {
  const current = rows.find((r) => r.job === row.job);
  const kept = current && current.nextAt <= row.nextAt ? current : row;
  return [...rows.filter((r) => r.job !== row.job), { ...kept, everyMs: row.everyMs }];
}

/** One periodic job of an object. */
export interface Job {
  /** Runs the job; resolves to when it should run next (epoch ms), or null when it has nothing left to do. */
  run(row: ScheduleRow, now: () => number): Promise<number | null>;
}

/** A job that repeats every `everyMs` of its row for as long as `again()` holds right after a run. */
export const periodic = (spec: { run(): Promise<unknown>; again(): boolean }): Job => ({
  async run(row, now) {
    await spec.run();
    return spec.again() ? ranAt(row, now()).nextAt : null;
  },
});

/** A job that retried too soon would spin its object: a failed run is tried again this much later at least. */
const RETRY_FAILED_MS = 1_000;

interface ScheduleDbRow extends Record<string, SqlStorageValue> {
  job: string;
  every_ms: number;
  next_at: number;
}

/**
 * The schedule table in an object's SQLite storage (`table` names it), and the one alarm that serves
 * every row: `runDue` runs the due jobs one after another and arms the alarm for the earliest remaining.
 * Jobs must be idempotent: alarms are delivered at least once.
 *
 * The rows and the alarm's time are also kept in memory, as this object last wrote or read them, so that
 * `soon` on a quote's or a submission's path reads no storage (docs/architecture.md, "Alarms"). Each
 * alarm reads the table afresh, and the alarm's time again when it next arms one.
 */
export class Schedule<J extends string> {
  private kept: Map<J, ScheduleRow<J>>;
  /** The alarm's time as last set or read here; undefined when not known (an alarm has run since). */
  private alarmAt: number | null | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly table: string,
    private readonly jobs: Record<J, Job>,
    private readonly onError: (job: J, error: unknown) => void,
  ) {
    storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (job TEXT PRIMARY KEY, every_ms INTEGER NOT NULL, next_at INTEGER NOT NULL)`,
    );
    this.kept = this.read();
  }

  private read(): Map<J, ScheduleRow<J>> {
    const rows = this.storage.sql.exec<ScheduleDbRow>(`SELECT job, every_ms, next_at FROM ${this.table}`).toArray();
    return new Map(rows.map((r) => [r.job as J, { job: r.job as J, everyMs: r.every_ms, nextAt: r.next_at }]));
  }

  rows(): ScheduleRow<J>[] {
    return [...this.kept.values()];
  }

  /**
   * Schedules `row`, or keeps the job's current time when that is sooner; then arms the alarm. A row
   * already as soon is not written again: the corridor asks this of every quote it stores (`drain`).
   */
  async soon(row: ScheduleRow<J>): Promise<void> {
    const rows = this.rows();
    const current = rows.find((r) => r.job === row.job);
    if (current && current.nextAt <= row.nextAt && current.everyMs === row.everyMs) return this.arm(next(rows));
    this.put(sooner(rows, row).find((r) => r.job === row.job) ?? row);
    await this.arm();
  }

  /** Makes sure `job` runs by `at`, for a job that says itself when it runs next (no period). */
  runBy(job: J, at: number): Promise<void> {
    return this.soon({ job, everyMs: 0, nextAt: at });
  }

  /** Schedules `row` when its job has no row yet. */
  ensure(row: ScheduleRow<J>): void {
    if (!this.rows().some((r) => r.job === row.job)) this.put(row);
  }

  put(row: ScheduleRow<J>): void {
    this.storage.sql.exec(
      `INSERT INTO ${this.table} (job, every_ms, next_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (job) DO UPDATE SET every_ms = ?2, next_at = ?3`,
      row.job,
      row.everyMs,
      row.nextAt,
    );
    this.kept.set(row.job, { job: row.job, everyMs: row.everyMs, nextAt: row.nextAt });
  }

  remove(job: J): void {
    this.storage.sql.exec(`DELETE FROM ${this.table} WHERE job = ?`, job);
    this.kept.delete(job);
  }

  /** When the alarm should fire next, or null. */
  nextAt(): number | null {
    return next(this.rows());
  }

  /** The alarm: runs each due job, reschedules or removes it as it answers, then arms for the earliest row. */
  async runDue(now: () => number): Promise<void> {
    this.kept = this.read();
    this.alarmAt = undefined;
    for (const row of due(this.rows(), now())) {
      const job = this.jobs[row.job];
      // A row of a job this object no longer runs (moved to another object) is dropped, not retried.
      if (!job) {
        this.remove(row.job);
        continue;
      }
      let nextAt: number | null;
      try {
        nextAt = await job.run(row, now);
      } catch (e) {
        this.onError(row.job, e);
        nextAt = now() + Math.max(row.everyMs, RETRY_FAILED_MS);
      }
      if (nextAt === null) this.remove(row.job);
      else this.put({ ...row, nextAt });
    }
    await this.arm();
  }

  /** Arms the object's alarm for the earliest row (`at`, when the caller read it already). */
  async arm(at = this.nextAt()): Promise<void> {
    if (at === null) return;
    if (this.alarmAt === undefined) this.alarmAt = await this.storage.getAlarm();
    if (this.alarmAt === at) return;
    await this.storage.setAlarm(at);
    this.alarmAt = at;
  }
}

/**
 * Work a job starts and does not wait for (docs/architecture.md, "Alarms"): the alarm goes on to the
 * object's other jobs at once, the work runs behind it (`waitUntil`), and while one run is in flight a
 * job that comes due again starts none. The work must be idempotent: an object evicted mid-run leaves it
 * to the next.
 */
export function behindTheAlarm(
  work: () => Promise<void>,
  host: { waitUntil(p: Promise<unknown>): void; onError(e: unknown): void },
): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return async () => {
    if (inFlight) return;
    inFlight = work()
      .catch((e: unknown) => host.onError(e))
      .finally(() => {
        inFlight = null;
      });
    host.waitUntil(inFlight);
  };
}
