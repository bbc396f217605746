import { describe, expect, it } from "vitest";
import { behindTheAlarm, due, next, ranAt, Schedule, type ScheduleRow, sooner } from "../../src/objects/schedule";

const T = 1_700_000_000_000;
const indexer: ScheduleRow = { job: "indexer", everyMs: 1_000, nextAt: T + 1_000 };
const prune: ScheduleRow = { job: "prune", everyMs: 3_600_000, nextAt: T + 3_600_000 };

describe("the schedule table", () => {
  it("arms for the earliest row, and for nothing when empty", () => {
    expect(next([prune, indexer])).toBe(T + 1_000);
    expect(next([])).toBeNull();
  });

  it("runs every row due by the time the alarm fires, earliest first", () => {
    const late = { ...prune, nextAt: T + 500 };
    expect(due([indexer, late], T + 2_000).map((r) => r.job)).toEqual(["prune", "indexer"]);
    expect(due([indexer, prune], T + 2_000).map((r) => r.job)).toEqual(["indexer"]);
  });

  it("runs the earliest row when the alarm fires before it is due, and only that one", () => {
    expect(due([indexer, prune], T).map((r) => r.job)).toEqual(["indexer"]);
    expect(due([], T)).toEqual([]);
  });

  it("schedules a row one period after its run", () => {
    expect(ranAt(indexer, T + 5_000)).toEqual({ job: "indexer", everyMs: 1_000, nextAt: T + 6_000 });
  });

  it("keeps the sooner time when a job is scheduled again", () => {
    expect(sooner([indexer, prune], { ...indexer, nextAt: T + 9_000 })).toContainEqual(indexer);
    expect(sooner([indexer, prune], { ...indexer, nextAt: T })).toContainEqual({ ...indexer, nextAt: T });
    expect(sooner([prune], indexer)).toEqual([prune, indexer]);
  });
});

describe("behindTheAlarm", () => {
  it("starts the work without waiting for it, and never runs it twice at once", async () => {
    let finish = () => {};
    let runs = 0;
    const kept: Promise<unknown>[] = [];
    const start = behindTheAlarm(
      () => {
        runs++;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      { waitUntil: (p) => kept.push(p), onError: () => {} },
    );
    // The alarm's job returns at once although the work is still running.
    await start();
    await start();
    expect(runs).toBe(1);
    expect(kept).toHaveLength(1);
    finish();
    await Promise.all(kept);
    await start();
    expect(runs).toBe(2);
  });

  it("hands a failure to onError and starts again the next time", async () => {
    const errors: unknown[] = [];
    const kept: Promise<unknown>[] = [];
    const start = behindTheAlarm(() => Promise.reject(new Error("round failed")), {
      waitUntil: (p) => kept.push(p),
      onError: (e) => errors.push(e),
    });
    await start();
    await Promise.all(kept);
    await start();
    await Promise.all(kept);
    expect(errors.map(String)).toEqual(["Error: round failed", "Error: round failed"]);
  });
});

/**
 * A schedule table in memory behind the calls `Schedule` makes of an object's storage, counting the
 * reads: the four statements it runs, and the alarm.
 */
function countedStorage() {
  const table = new Map<string, { job: string; every_ms: number; next_at: number }>();
  const counts = { selects: 0, writes: 0, getAlarm: 0, setAlarm: 0 };
  let alarm: number | null = null;
  const exec = (query: string, ...bindings: unknown[]) => {
    const rows = [] as unknown[];
    if (query.startsWith("SELECT")) {
      counts.selects++;
      rows.push(...[...table.values()].map((r) => ({ ...r })));
    } else if (query.startsWith("INSERT")) {
      counts.writes++;
      const [job, everyMs, nextAt] = bindings as [string, number, number];
      table.set(job, { job, every_ms: everyMs, next_at: nextAt });
    } else if (query.startsWith("DELETE")) {
      counts.writes++;
      table.delete(bindings[0] as string);
    }
    return { toArray: () => rows };
  };
  const storage = {
    sql: { exec },
    getAlarm: async () => {
      counts.getAlarm++;
      return alarm;
    },
    setAlarm: async (at: number) => {
      counts.setAlarm++;
      alarm = at;
    },
  } as unknown as DurableObjectStorage;
  return { storage, table, counts, alarm: () => alarm };
}

describe("Schedule in an object's storage", () => {
  const jobs = { drain: { run: async () => null }, prune: { run: async () => T + 3_600_000 } };

  it("reads the table once and the alarm once, however often a quote's path asks for a job", async () => {
    const { storage, counts, alarm } = countedStorage();
    const schedule = new Schedule(storage, "probe_schedule", jobs, () => {});
    expect(counts.selects).toBe(1);
    for (let i = 0; i < 50; i++) await schedule.runBy("drain", T + 1_000 + i);
    // The first call writes the row and arms the alarm; the 49 later times keep the sooner one.
    expect(counts).toEqual({ selects: 1, writes: 1, getAlarm: 1, setAlarm: 1 });
    expect(alarm()).toBe(T + 1_000);
    await schedule.runBy("drain", T + 500);
    expect(counts).toEqual({ selects: 1, writes: 2, getAlarm: 1, setAlarm: 2 });
    expect(alarm()).toBe(T + 500);
    expect(schedule.rows()).toEqual([{ job: "drain", everyMs: 0, nextAt: T + 500 }]);
  });

  it("reads the table and the alarm afresh when the alarm runs, so a row changed in storage counts", async () => {
    const { storage, table, counts, alarm } = countedStorage();
    const schedule = new Schedule(storage, "probe_schedule", jobs, () => {});
    await schedule.runBy("drain", T + 1_000);
    // Changed behind the schedule's back, as an operator's SQL or a test would: the next alarm sees it.
    table.set("prune", { job: "prune", every_ms: 3_600_000, next_at: T });
    await schedule.runDue(() => T + 1_000);
    expect(counts.selects).toBe(2);
    expect(counts.getAlarm).toBe(2);
    // Both were due: prune runs again an hour on; drain had nothing left to do and is gone.
    expect(schedule.rows()).toEqual([{ job: "prune", everyMs: 3_600_000, nextAt: T + 3_600_000 }]);
    expect(alarm()).toBe(T + 3_600_000);
  });

  it("drops a row of a job the object no longer runs (moved to another object) instead of failing it forever", async () => {
    const { storage, table } = countedStorage();
    table.set("indexer", { job: "indexer", every_ms: 1_000, next_at: T });
    const failed: string[] = [];
    const schedule = new Schedule(storage, "probe_schedule", jobs, (job) => failed.push(job));
    await schedule.runDue(() => T + 1_000);
    expect(failed).toEqual([]);
    expect([...table.keys()]).toEqual([]);
    expect(schedule.rows()).toEqual([]);
  });
});
