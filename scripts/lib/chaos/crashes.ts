/**
 * The relay killed and started again (docs/operations.md, "Deploys and crashes"): wrangler dev and workerd
 * get SIGKILL together, as a lost machine or an out-of-memory kill ends them, and a new wrangler dev starts
 * at once on the same persisted state (local D1 and Durable Object storage) and the same port, the chains
 * running on. Each crash waits for a submission to be on its way, then strikes within the next 120 ms
 * (a submission takes 50 to 100 ms locally): a crash between requests would prove little.
 */
import { type RelayProcess, type StartRelayOptions, startRelay } from "../local-stack";

export interface CrashableOptions extends StartRelayOptions {
  port: number;
  persistTo: string;
}

export class CrashableRelay {
  private constructor(
    private readonly options: CrashableOptions,
    private process: RelayProcess,
  ) {}

  static async start(options: CrashableOptions): Promise<CrashableRelay> {
    return new CrashableRelay(options, await startRelay(options));
  }

  get url(): string {
    return this.process.url;
  }

  output(): string {
    return this.process.output();
  }

  /** SIGKILL now, then wrangler dev again on the same state and port; how long it was down, in ms. */
  async crashAndRestart(): Promise<number> {
    const down = Date.now();
    await this.process.crash();
    this.process = await startRelay(this.options);
    return Date.now() - down;
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** Lets the crasher wait for the next submission attempt to leave. */
export class SubmissionWatch {
  private waiting: (() => void)[] = [];

  /** Called as each attempt is sent. */
  readonly sending = (): void => {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  };

  /** Resolves at the next attempt, or after `timeoutMs` when none comes. */
  next(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export interface CrashRecord {
  /** Ms from the run's start. */
  at: number;
  downMs: number;
}

/** The longest a crash waits for a submission to strike during. */
const WAIT_FOR_SUBMISSION_MS = 5_000;
/** The kill falls somewhere in a submission's way through the Worker and the keeper, or just after it. */
const STRIKE_WITHIN_MS = 120;

/** Crashes the relay at each moment (ms from `start`), one after the other; what each crash cost. */
export async function crashOnSchedule(
  relay: CrashableRelay,
  moments: readonly number[],
  start: number,
  options: { watch: SubmissionWatch; random: () => number; onCrash?: (crash: CrashRecord) => void },
): Promise<CrashRecord[]> {
  const crashes: CrashRecord[] = [];
  for (const moment of moments) {
    await new Promise((r) => setTimeout(r, Math.max(0, start + moment - Date.now())));
    await options.watch.next(WAIT_FOR_SUBMISSION_MS);
    await new Promise((r) => setTimeout(r, Math.round(options.random() * STRIKE_WITHIN_MS)));
    const at = Date.now() - start;
    const crash = { at, downMs: await relay.crashAndRestart() };
    crashes.push(crash);
    options.onCrash?.(crash);
  }
  return crashes;
}
