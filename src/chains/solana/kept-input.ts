/**
 * One chain input read in the background and held with the time its read started (docs/settlement.md,
 * "What a Solana fill costs"), as the blockhash is (src/chains/solana/blockhash.ts): `refresh` starts a
 * read when the held value is `everyMs` old or there is none, one read at a time, and a failed read is
 * handed to `onError` and leaves the held value as it was. `current` never reads.
 */
export interface Kept<T> {
  value: T;
  /** When the read that returned it started (ms, the clock `refresh` was given). */
  at: number;
}

export class KeptInput<T> {
  private latest: Kept<T> | null = null;
  private reading: Promise<void> | null = null;

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
    this.reading = this.read()
      .then((value) => {
        if (!this.latest || now >= this.latest.at) this.latest = { value, at: now };
      })
      .catch((e: unknown) => this.onError(e))
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
