/**
 * Quotes under load on one corridor of a side (bench/README.md, "How a run measures"): `concurrency`
 * takers back to back, each a client of its own, with the Worker's CPU, its resolvers' thread and the
 * machine over the same seconds; and the sides in turns, mirrored (A, B, C, C, B, A), so the shared
 * machine's drift falls on each alike.
 */
import type { FleetThread } from "./fleet-thread";
import type { Side } from "./floor-sides";
import { QuoteFailed } from "./rfq-relay";
import { cpuMs, machineCpuMs } from "./workerd";

export interface Load {
  done: number;
  failed: number;
  seconds: number;
  cpuMs: number;
  /** The resolvers' thread's busy time, and the whole machine's CPU time, over the same seconds. */
  resolversMs: number;
  machineMs: number;
  /** Offers in the answers with a price: the bids their auctions took. */
  offers: number;
  /** Answers filled by two legs or more (docs/legs.md). */
  composed: number;
}

let nextTaker = 100_000;

/** `concurrency` takers back to back on one corridor of `side` for `seconds`, each a client of its own. */
export async function load(side: Side, fleet: FleetThread, seconds: number, concurrency: number): Promise<Load> {
  const cpuBefore = cpuMs(side.runtime.workerPids);
  const resolversBefore = fleet.busyMs();
  const machineBefore = machineCpuMs();
  const started = performance.now();
  const until = started + seconds * 1000;
  let done = 0;
  let failed = 0;
  let offers = 0;
  let composed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (performance.now() < until) {
        try {
          // Read after the await: `offers += await …` would add to the count as it was before it.
          const answer = await side.ask(nextTaker++, client);
          offers += answer.offers;
          if (answer.legs > 1) composed++;
          done++;
        } catch (e) {
          if (!(e instanceof QuoteFailed)) throw e;
          failed++;
        }
      }
    }),
  );
  return {
    done,
    failed,
    seconds: (performance.now() - started) / 1000,
    cpuMs: cpuMs(side.runtime.workerPids) - cpuBefore,
    resolversMs: fleet.busyMs() - resolversBefore,
    machineMs: machineCpuMs() - machineBefore,
    offers,
    composed,
  };
}

export interface Loaded {
  perSecond: number;
  cpuPerQuote: number;
  failed: number;
  offersPerQuote: number;
  /** The share of the answers filled by two legs or more. */
  composedShare: number;
  /** Shares of one core: the Worker's process, its resolvers' thread, and the whole machine. */
  shares: { worker: number; resolvers: number; machine: number };
}

/**
 * Each side under load for `seconds` in two halves, in mirrored turns (A, B, C, C, B, A): quotes answered
 * with a price per second, and the Worker's CPU per quote (a failed auction costs CPU too).
 */
export async function underLoad(
  sides: readonly Side[],
  fleets: Map<Side, FleetThread>,
  seconds: number,
  concurrency: number,
): Promise<Loaded[]> {
  const keys = ["done", "failed", "seconds", "cpuMs", "resolversMs", "machineMs", "offers", "composed"] as const;
  const totals = new Map<Side, Load>(
    sides.map((s) => [s, Object.fromEntries(keys.map((k) => [k, 0])) as unknown as Load]),
  );
  for (const side of [...sides, ...[...sides].reverse()]) {
    const part = await load(side, fleets.get(side) as FleetThread, seconds / 2, concurrency);
    const total = totals.get(side) as Load;
    for (const key of keys) total[key] += part[key];
  }
  return sides.map((s) => {
    const t = totals.get(s) as Load;
    const ms = t.seconds * 1000;
    return {
      perSecond: t.done / t.seconds,
      cpuPerQuote: t.cpuMs / (t.done + t.failed),
      failed: t.failed,
      offersPerQuote: t.offers / t.done,
      composedShare: t.composed / t.done,
      shares: { worker: t.cpuMs / ms, resolvers: t.resolversMs / ms, machine: t.machineMs / ms },
    };
  });
}
