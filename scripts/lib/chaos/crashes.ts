/**
 * The relay killed and started again (docs/operations.md, "Deploys and crashes"): wrangler dev and workerd
 * get SIGKILL together, as a lost machine or an out-of-memory kill ends them, and a new wrangler dev starts
 * at once on the same persisted state (local D1 and Durable Object storage) and the same port, the chains
 * running on. Each crash is aimed at a submission on its way (`Aim`): a crash between requests would
 * prove little.
 */
import { type RelayProcess, type StartRelayOptions, startRelay } from "../local-stack";
import type { HeldBroadcasts } from "./held-broadcasts";

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

  /** SIGKILL to wrangler and workerd; resolves once they are gone. */
  crash(): Promise<void> {
    return this.process.crash();
  }

  /** wrangler dev again on the same state and port; resolves once it answers. */
  async restart(): Promise<void> {
    this.process = await startRelay(this.options);
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

  /** Resolves at the next attempt (true), or after `timeoutMs` when none comes (false). */
  next(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * Where a crash is aimed: `request`, within 120 ms of a submission attempt leaving (a submission takes 50
 * to 100 ms locally); `broadcast`, while the keeper waits for the answer to a broadcast it has stored and
 * not yet written to D1 (held-broadcasts.ts).
 */
export type Aim = "request" | "broadcast";

export interface CrashRecord {
  /** Ms from the run's start. */
  at: number;
  downMs: number;
  aim: Aim;
  /** Whether it struck as aimed: a submission on its way, or a broadcast held. */
  struck: boolean;
}

/** What a crash waits for, at most, before it strikes anyway. */
const WAIT_FOR_TARGET_MS = 5_000;
const STRIKE_WITHIN_MS = 120;

export interface CrashTargets {
  requests: SubmissionWatch;
  /** The keeper's RPC proxies of every chain; none: every crash is aimed at a request. */
  broadcasts: readonly HeldBroadcasts[];
}

/** Waits for what the crash is aimed at; whether it came. Returns the releases of anything held. */
async function aimAt(aim: Aim, targets: CrashTargets, random: () => number): Promise<[boolean, () => void]> {
  if (aim === "broadcast" && targets.broadcasts.length > 0) {
    const caught = await Promise.race([
      ...targets.broadcasts.map((b) => b.arm()),
      new Promise<null>((r) => setTimeout(() => r(null), WAIT_FOR_TARGET_MS)),
    ]);
    for (const b of targets.broadcasts) b.disarm();
    return caught ? [true, caught] : [false, () => {}];
  }
  const came = await targets.requests.next(WAIT_FOR_TARGET_MS);
  await new Promise((r) => setTimeout(r, Math.round(random() * STRIKE_WITHIN_MS)));
  return [came, () => {}];
}

/** Crashes the relay at each moment (ms from `start`), one after the other; what each crash was. */
export async function crashOnSchedule(
  relay: CrashableRelay,
  schedule: readonly { at: number; aim: Aim }[],
  start: number,
  options: { targets: CrashTargets; random: () => number; onCrash?: (crash: CrashRecord) => void },
): Promise<CrashRecord[]> {
  const crashes: CrashRecord[] = [];
  for (const { at: moment, aim } of schedule) {
    await new Promise((r) => setTimeout(r, Math.max(0, start + moment - Date.now())));
    const [struck, release] = await aimAt(aim, options.targets, options.random);
    const down = Date.now();
    await relay.crash();
    // The held answer goes to a dead socket: the keeper that waited for it is gone.
    release();
    await relay.restart();
    const crash = { at: down - start, downMs: Date.now() - down, aim, struck };
    crashes.push(crash);
    options.onCrash?.(crash);
  }
  return crashes;
}
