export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 15_000 };

/** How a reconnect waits: the platform's timers, or a test's fake clock (test/support/fake-clock.ts). */
export interface ReconnectTimer {
  /** Runs `run` once `ms` have passed; the function returned cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const realTimer: ReconnectTimer = {
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * The wait before reconnect attempt `attempt` (0-based): `initialMs` doubling up to `maxMs`, with
 * "equal jitter" (half fixed, half random) so resolvers dropped together do not return together yet
 * never retry sooner than half the schedule.
 */
export function backoffDelay(attempt: number, random: () => number, backoff: Backoff = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * One corridor's reconnect schedule. It counts failed connections since the last `welcome`, not since
 * the last open socket, so a node the relay refuses backs off instead of hammering it
 * (docs/reference-resolver.md, "Connection").
 */
export class Reconnect {
  private attempt = 0;
  /** Cancels the armed reconnect, if one is. */
  private cancelArmed: (() => void) | null = null;

  constructor(
    private readonly random: () => number,
    private readonly backoff?: Backoff,
    private readonly timer: ReconnectTimer = realTimer,
  ) {}

  /** Failed connections so far: the `attempt` of the next `connecting` event. */
  get attempts(): number {
    return this.attempt;
  }

  /** Arms `connect` after the next delay of the schedule; returns what the `reconnect` event reports. */
  schedule(connect: () => void): { attempt: number; delayMs: number } {
    const delayMs = backoffDelay(this.attempt, this.random, this.backoff);
    this.attempt += 1;
    this.cancelArmed = this.timer.after(delayMs, () => {
      this.cancelArmed = null;
      connect();
    });
    return { attempt: this.attempt, delayMs };
  }

  /** The relay welcomed the node: the next drop starts the schedule afresh. */
  reset(): void {
    this.attempt = 0;
  }

  cancel(): void {
    this.cancelArmed?.();
    this.cancelArmed = null;
  }
}
