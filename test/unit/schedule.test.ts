import { describe, expect, it } from "vitest";
import { behindTheAlarm, due, next, ranAt, type ScheduleRow, sooner } from "../../src/schedule";

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
