/**
 * Time as a corridor's parts read it, given to each at construction: the real one in the corridor object,
 * a fake one in unit tests, so an auction's window, backoffs and waits run without sleeping.
 */
export interface Clock {
  /** Wall-clock time (ms since the epoch). */
  now(): number;
  /** A monotonic reading (ms), for how long a phase took. */
  elapsed(): number;
  /** Runs `run` once `ms` have passed; the function returned cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Settles once `ms` have passed. */
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  elapsed: () => performance.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
