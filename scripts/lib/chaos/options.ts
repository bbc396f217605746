/**
 * `npm run chaos` options and the moments its crashes come at (docs/operations.md, "Deploys and crashes").
 * Pure: the run's randomness comes from a seed the run prints, so a run's crash moments can be had again.
 */
import { parseArgs } from "node:util";

export interface ChaosOptions {
  /** Times the relay is killed with SIGKILL and started again. */
  crashes: number;
  /** How long the takers swap, in minutes. */
  minutes: number;
  /** EVM takers, each swapping back to back. */
  takers: number;
  /** Solana takers (the local chain's `taker:5` …), each swapping back to back. */
  solanaTakers: number;
  /** Whether one more taker places a limit order a third of the way in and follows it to its fill. */
  limitOrder: boolean;
  /** Keys of the keeper's EVM wallet pool (1 is what `npm start` runs). */
  wallets: number;
  seed: number;
  /** Print the relay's own log lines too. */
  verbose: boolean;
  /** A file to write every attempt, and what the relay and the chains said at the end, as JSON. */
  out: string | null;
}

export class ChaosUsageError extends Error {
  override readonly name = "ChaosUsageError";
}

export const CHAOS_USAGE =
  "npm run chaos -- [--crashes 3] [--minutes 2] [--takers 6] [--solana-takers 1] [--no-limit-order] " +
  "[--wallets 1] [--seed N] [--verbose] [--out FILE]";

/** The local Solana chain has four seeded takers (docs/local-stack.md, "Seeded accounts"). */
const MAX_SOLANA_TAKERS = 4;

export function parseChaosArgs(argv: readonly string[], randomSeed = () => Date.now() % 2 ** 31): ChaosOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        crashes: { type: "string", default: "3" },
        minutes: { type: "string", default: "2" },
        takers: { type: "string", default: "6" },
        "solana-takers": { type: "string", default: "1" },
        "no-limit-order": { type: "boolean", default: false },
        wallets: { type: "string", default: "1" },
        seed: { type: "string" },
        verbose: { type: "boolean", default: false },
        out: { type: "string" },
      },
      strict: true,
    }).values;
  } catch (e) {
    throw new ChaosUsageError(`${(e as Error).message}\n${CHAOS_USAGE}`);
  }
  const minutes = Number(values.minutes);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 60) {
    throw new ChaosUsageError(`--minutes ${values.minutes}: a number of minutes over 0, at most 60`);
  }
  return {
    crashes: whole(values.crashes, "--crashes", 0, 100),
    minutes,
    takers: whole(values.takers, "--takers", 1, 50),
    solanaTakers: whole(values["solana-takers"], "--solana-takers", 0, MAX_SOLANA_TAKERS),
    limitOrder: values["no-limit-order"] !== true,
    wallets: whole(values.wallets, "--wallets", 1, 4),
    seed: values.seed === undefined ? randomSeed() : whole(values.seed, "--seed", 0, 2 ** 31 - 1),
    verbose: values.verbose === true,
    out: typeof values.out === "string" ? values.out : null,
  };
}

function whole(value: unknown, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ChaosUsageError(`${flag} ${String(value)}: a whole number from ${min} to ${max}`);
  }
  return n;
}

/** A small deterministic generator (mulberry32): numbers in [0, 1) from a 31-bit seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Every other crash, from the first, is aimed at a broadcast held at the keeper's RPC, the others at a
 * request on its way (crashes.ts, `Aim`).
 */
export function crashSchedule(moments: readonly number[]): { at: number; aim: "broadcast" | "request" }[] {
  return moments.map((at, i) => ({ at, aim: i % 2 === 0 ? "broadcast" : "request" }));
}

/**
 * When the crashes come, in ms from the start: the run is cut into one span per crash and each crash falls
 * at random in the middle 60 % of its span: crashes are spread over the whole run, none in the first fifth of
 * it (the takers are under way), and they are at least 40 % of a span apart (the relay has time to come back
 * between them).
 */
export function crashMoments(crashes: number, durationMs: number, random: () => number): number[] {
  const span = durationMs / Math.max(crashes, 1);
  return Array.from({ length: crashes }, (_, i) => Math.round(i * span + (0.2 + 0.6 * random()) * span));
}
