/**
 * How long after a failed read the next one may start: a chain (or the oracle, or D1) that does not answer
 * is asked about once a second, however many quotes and heartbeats ask for its inputs meanwhile
 * (docs/api.md, "The gas fee").
 */
export const FAILED_READ_RETRY_MS = 1_000;

/**
 * One input of a fill's cost read in the background and held with the time its read started (docs/api.md, "The gas
 * fee"): `refresh` starts a read when the held value is `everyMs` old or there is none, one read at a time
 * and no sooner than `FAILED_READ_RETRY_MS` after one that failed; a failed read is handed to `onError` and
 * leaves the held value as it was. `current` never reads.
 */
export interface Kept<T> {
  value: T;
  /** When the read that returned it started (ms, the clock `refresh` was given). */
  at: number;
}

export class KeptInput<T> {
  private latest: Kept<T> | null = null;
  private reading: Promise<void> | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly everyMs: number,
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  /** The last value read, with when; null before the first read succeeds. */
  current(): Kept<T> | null {
    return this.latest;
  }

  /** Starts a read if one is due at `now`; the promise settles (never rejects) when that read does. */
  refresh(now: number): Promise<void> {
    if (this.reading) return this.reading;
    if (this.latest && now - this.latest.at < this.everyMs) return Promise.resolve();
    if (now - this.failedAt < FAILED_READ_RETRY_MS) return Promise.resolve();
    this.reading = this.read()
      .then((value) => {
        if (!this.latest || now >= this.latest.at) this.latest = { value, at: now };
      })
      .catch((e: unknown) => {
        this.failedAt = now;
        this.onError(e);
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
