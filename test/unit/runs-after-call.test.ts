import { describe, expect, it } from "vitest";
import { runsAfterCall } from "../../src/keeper/runs-after-call";

/** A run that ends when the test says: `finish(i)` ends the i-th run started. */
function controlled() {
  const ends: (() => void)[] = [];
  let started = 0;
  const run = runsAfterCall(
    () =>
      new Promise<number>((resolve) => {
        const n = ++started;
        ends.push(() => resolve(n));
      }),
  );
  return { run, finish: (i: number) => ends[i]?.(), started: () => started };
}

describe("runsAfterCall", () => {
  it("answers a call while a run is under way with the next run, shared by every such call", async () => {
    const { run, finish, started } = controlled();
    const first = run();
    const second = run();
    const third = run();
    expect(started()).toBe(1);
    finish(0);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(started()).toBe(2);
    finish(1);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(started()).toBe(2);
  });

  it("starts a run at once when none is under way, and again after a run failed", async () => {
    let calls = 0;
    const run = runsAfterCall(async () => {
      calls += 1;
      if (calls === 1) throw new Error("failed");
      return calls;
    });
    await expect(run()).rejects.toThrow("failed");
    expect(await run()).toBe(2);
  });
});
