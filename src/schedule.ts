/**
 * A schedule table for one alarm serving several periodic jobs (docs/settlement.md, "The keeper's
 * alarm"): each row says when its job runs next and how often it repeats. The alarm runs the due rows
 * and is armed again for the earliest remaining. Pure: the object keeps the rows in its storage.
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
