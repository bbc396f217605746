/**
 * Quotes on the relay beside both floors, in one run (bench/README.md, "The floor"): the relay and the
 * floors' Worker under `wrangler dev`, each measured at its own workerd (bench/workerd.ts); for each
 * resolver count, the three fleets connected (the same 20 ms reply), quotes one at a time in turns (relay,
 * required-work floor, bare floor), then each under load in mirrored turns, so the shared machine's drift
 * falls on all three. The targets stand against the required-work floor; the bare floor is printed beside.
 */

import { availableParallelism } from "node:os";
import type { FleetThread } from "./fleet-thread";
import { type FloorProcess, localObservability, startFloor } from "./floor-dev";
import { type Loaded, underLoad } from "./floor-load";
import { OverheadSplit } from "./floor-overhead";
import { floorSide, relaySide, SIDE_LABEL, type Side } from "./floor-sides";
import type { Comparison } from "./floor-table";
import { Sample, TAKER_POOL, withRelay } from "./rfq-relay";
import { fmt, Phases, percentile, quiet } from "./stats";
import { cpuMs, type WorkerRuntime } from "./workerd";

// What other scripts took from here before the sides moved out (bench/paired.ts reads a checkout's own).
export { load } from "./floor-load";
export { floorSide, relaySide, type Side } from "./floor-sides";

export interface QuoteRunOptions {
  /** Quotes one at a time, each side. */
  quotes: number;
  /** Under load, each side (in two halves). */
  seconds: number;
  concurrency: number;
  resolverCounts: number[];
}

export const quoteRunOptions = (): QuoteRunOptions => ({
  quotes: Number(process.env.BENCH_QUOTES ?? 400),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 24),
  resolverCounts: (process.env.BENCH_RESOLVERS ?? "1,5,20").split(",").map(Number),
});

const IDLE_SECONDS = 2;
const WARM_UP = 10;
const atResolvers = (n: number) => `${n} resolver${n === 1 ? "" : "s"}`;

/**
 * A bare request on the relay and the floors' Worker, alternating, with no resolvers: the relay's
 * `GET /v1/config` (middleware, a cached record) and the floor's `GET /health`, timed at the client.
 */
async function bareRequests(relay: WorkerRuntime, floor: WorkerRuntime, n: number) {
  const times = { relay: [] as number[], floor: [] as number[] };
  const timed = async (url: string) => {
    const started = performance.now();
    await (await fetch(url)).text();
    return performance.now() - started;
  };
  for (let i = 0; i < n + WARM_UP; i++) {
    await quiet();
    const r = await timed(`${relay.directUrl}/v1/config`);
    await quiet();
    const f = await timed(`${floor.directUrl}/health`);
    if (i < WARM_UP) continue;
    times.relay.push(r);
    times.floor.push(f);
  }
  const p = (xs: number[]) => `p50 ${fmt(percentile(xs, 50))} p99 ${fmt(percentile(xs, 99))}`;
  console.log(
    `a bare request, alternating: relay GET /v1/config ${p(times.relay)}; floor GET /health ${p(times.floor)}\n`,
  );
  return times;
}

/**
 * Each side's CPU ms a second with its resolvers connected and no quotes, over the same seconds. Both
 * floors live in one process: each of theirs is that process's, both fleets connected.
 */
async function idleCpu(sides: readonly Side[]): Promise<number[]> {
  const before = sides.map((s) => cpuMs(s.runtime.workerPids));
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  return sides.map((s, i) => (cpuMs(s.runtime.workerPids) - (before[i] as number)) / IDLE_SECONDS);
}

/** `n` quotes on each side one at a time, in turns; per side its sample and CPU ms per quote. */
async function alternating(sides: readonly Side[], n: number, relayPhases: Phases, relaySplit: OverheadSplit) {
  // A warm-up first, so that no measured quote wakes an object or loads code.
  for (let i = 0; i < Math.max(WARM_UP, TAKER_POOL); i++) for (const side of sides) await side.ask(i, 0);
  const samples = sides.map(() => new Sample());
  const cpu = sides.map(() => 0);
  await quiet();
  for (let i = 0; i < n; i++) {
    for (const [k, side] of sides.entries()) {
      // Each side's own window, the quote and the quiet after it (what it does behind its answer): both
      // floors share a process.
      const before = cpuMs(side.runtime.workerPids);
      const timing = await side.ask(WARM_UP + i, 0, side.name === "relay" ? relayPhases : undefined);
      await quiet();
      cpu[k] = (cpu[k] as number) + cpuMs(side.runtime.workerPids) - before;
      samples[k]?.add(timing);
      if (side.name === "relay") relaySplit.add(timing);
    }
  }
  return sides.map((_, k) => ({ sample: samples[k] as Sample, cpuPerQuote: (cpu[k] as number) / n }));
}

interface SideFigures extends Loaded {
  sample: Sample;
  cpuOneAtATime: number;
  idleCpuMsPerS: number;
}

type Row = { resolvers: number } & Record<Side["name"], SideFigures>;

function describe(name: string, f: SideFigures): string {
  return (
    `   ${name}: ${f.sample.describe()}\n` +
    `          CPU per quote ${fmt(f.cpuPerQuote)} at full load, ${fmt(f.cpuOneAtATime)} one at a time` +
    ` (idle ${f.idleCpuMsPerS.toFixed(1)} ms/s) | ${f.perSecond.toFixed(0)} quotes/s on one corridor` +
    (f.failed ? ` (${f.failed} auctions under load ended without a price, not counted)` : "") +
    `\n          under load: ${f.offersPerQuote.toFixed(1)} offers a quote; in cores busy: the Worker's process ${f.shares.worker.toFixed(2)}, its resolvers' ` +
    `thread ${f.shares.resolvers.toFixed(2)}, the whole machine ${f.shares.machine.toFixed(2)} of ${availableParallelism()}`
  );
}

async function measureAt(count: number, sides: readonly Side[], options: QuoteRunOptions): Promise<Row> {
  const fleets = new Map<Side, FleetThread>();
  const connected = async (i: number): Promise<Row> => {
    const side = sides[i];
    if (side) {
      return side.withResolvers(count, (fleet) => {
        fleets.set(side, fleet);
        return connected(i + 1);
      });
    }
    const idle = await idleCpu(sides);
    const phases = new Phases();
    const split = new OverheadSplit();
    const seq = await alternating(sides, options.quotes, phases, split);
    const loaded = await underLoad(sides, fleets, options.seconds, options.concurrency);
    const row = { resolvers: count } as Row;
    for (const [k, s] of sides.entries()) {
      const q = seq[k] as (typeof seq)[number];
      row[s.name] = {
        ...(loaded[k] as Loaded),
        sample: q.sample,
        cpuOneAtATime: q.cpuPerQuote,
        idleCpuMsPerS: idle[k] as number,
      };
    }
    const lines = sides.map((s) => describe(SIDE_LABEL[s.name], row[s.name]));
    console.log(
      `${atResolvers(count)}, the relay beside both floors\n${lines[0]}\n` +
        `          the relay's phases (Server-Timing, p50 ms): ${phases.describe()}\n` +
        `          the relay's overhead by phase: ${split.describe()}\n${lines.slice(1).join("\n")}`,
    );
    return row;
  };
  return connected(0);
}

/** A figure of every row: the relay's against the required-work floor's, the bare floor's beside. */
function compared(
  figure: string,
  r: Row,
  value: (f: SideFigures) => number,
  rest: Pick<Comparison, "unit" | "against" | "target">,
): Comparison {
  return { figure, relay: value(r.relay), floor: value(r.required), bare: value(r.bare), ...rest };
}

/** The quote targets (bench/README.md, "Targets and where they stand") from the rows. */
function comparisons(rows: readonly Row[]): Comparison[] {
  const out: Comparison[] = [];
  const first = rows[0];
  const last = rows[rows.length - 1];
  // Overhead from 5 resolvers up (1 where the run has no other); CPU at the fewest and the most resolvers.
  const gated = (r: Row) => r.resolvers >= 5 || rows.length === 1;
  const ratio = "ratio" as const;
  for (const r of rows) {
    const at = atResolvers(r.resolvers);
    const overhead = (value: number) => (gated(r) ? { target: { better: "lower" as const, value } } : {});
    out.push(
      compared(`overhead p50, ${at}`, r, (f) => f.sample.overheadP50, {
        unit: "ms",
        against: ratio,
        ...overhead(1.25),
      }),
    );
    out.push(
      compared(`overhead p99, ${at}`, r, (f) => f.sample.overheadP99, { unit: "ms", against: ratio, ...overhead(1.5) }),
    );
  }
  for (const r of rows) {
    const target = r === first || r === last ? { target: { better: "lower" as const, value: 2 } } : {};
    out.push(
      compared(`CPU per quote, full load, ${atResolvers(r.resolvers)}`, r, (f) => f.cpuPerQuote, {
        unit: "ms",
        against: "difference",
        ...target,
      }),
    );
  }
  if (first && last && last.resolvers > first.resolvers) {
    const span = last.resolvers - first.resolvers;
    const growth = (k: Side["name"]) => (last[k].cpuPerQuote - first[k].cpuPerQuote) / span;
    out.push({
      figure: `CPU per quote growth, ${first.resolvers} → ${last.resolvers} resolvers`,
      relay: growth("relay"),
      floor: growth("required"),
      bare: growth("bare"),
      unit: "ms/resolver",
      against: "relay",
    });
  }
  for (const r of rows) {
    const target = r.resolvers === 20 ? { target: { better: "higher" as const, value: 0.7 } } : {};
    out.push(
      compared(`quotes/s on one corridor, ${atResolvers(r.resolvers)}`, r, (f) => f.perSecond, {
        unit: "q/s",
        against: ratio,
        ...target,
      }),
    );
  }
  return out;
}

/** The relay and the floors started side by side, measured at every resolver count, and stopped. */
export async function compareQuotes(options: QuoteRunOptions = quoteRunOptions()): Promise<Comparison[]> {
  return withRelay(0, async (_, relayRuntime) => {
    const floor: FloorProcess = await startFloor();
    try {
      console.log(
        `relay directly on ${relayRuntime.directUrl} (workerd ${relayRuntime.workerPids.join(", ")}); ` +
          `floors directly on ${floor.runtime.directUrl} (workerd ${floor.runtime.workerPids.join(", ")}); ` +
          `local observability ${localObservability()}\n`,
      );
      const bare = await bareRequests(relayRuntime, floor.runtime, options.quotes);
      const sides = [relaySide(relayRuntime), floorSide(floor, "required"), floorSide(floor, "bare")];
      const rows: Row[] = [];
      for (const count of options.resolverCounts) rows.push(await measureAt(count, sides, options));
      return [
        {
          figure: "a bare request (GET /v1/config, GET /health), p50",
          relay: percentile(bare.relay, 50),
          floor: percentile(bare.floor, 50),
          bare: percentile(bare.floor, 50),
          unit: "ms",
          against: "ratio",
        },
        ...comparisons(rows),
      ];
    } finally {
      await floor.stop();
    }
  });
}
