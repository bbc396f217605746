import type { SubmitTimings } from "./rpc";

/** A submission's timings before it starts: every phase 0. */
export const noTimings = (): SubmitTimings => ({
  readMs: 0,
  verifyMs: 0,
  simulateMs: 0,
  claimMs: 0,
  lockMs: 0,
  signMs: 0,
  storageMs: 0,
  broadcastMs: 0,
  writeMs: 0,
});

/** Adds the time `run` takes to `phase`, whether it returns or throws. */
export async function timed<T>(timings: SubmitTimings, phase: keyof SubmitTimings, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await run();
  } finally {
    timings[phase] += performance.now() - start;
  }
}

/** The same, for synchronous work (the object's storage). */
export function timedSync<T>(timings: SubmitTimings, phase: keyof SubmitTimings, run: () => T): T {
  const start = performance.now();
  try {
    return run();
  } finally {
    timings[phase] += performance.now() - start;
  }
}

/** The timings as answered: hundredths of a millisecond are plenty for a Server-Timing header. */
export const rounded = (timings: SubmitTimings): SubmitTimings =>
  Object.fromEntries(
    Object.entries(timings).map(([k, v]) => [k, Math.round(v * 100) / 100]),
  ) as unknown as SubmitTimings;
