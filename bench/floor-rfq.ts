/**
 * Quotes on the relay beside the floor, in one run (bench/README.md, "The floor"): both under
 * `wrangler dev`, each measured at its own workerd (bench/workerd.ts); for each resolver count, both
 * fleets connected (the same 20 ms reply), quotes one at a time alternating between the two, then each
 * under load in turns (relay, floor, floor, relay), so the shared machine's drift falls on both.
 */

import { availableParallelism } from "node:os";
import { clientHeaders } from "./clients";
import { type FleetThread, startFleetThread } from "./fleet-thread";
import type { FloorQuote } from "./floor/protocol";
import { type FloorProcess, localObservability, startFloor } from "./floor-dev";
import type { Comparison } from "./floor-table";
import {
  CNGN,
  ONE_CORRIDOR,
  QuoteFailed,
  type QuoteTiming,
  quote,
  REPLY_LATENCY_MS,
  Sample,
  SELL_AMOUNT,
  TAKER_POOL,
  taker,
  withFleet,
  withRelay,
} from "./rfq-relay";
import { fmt, Phases, percentile, quiet } from "./stats";
import { cpuMs, machineCpuMs, type WorkerRuntime } from "./workerd";

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

const FLOOR_CORRIDOR = "cngn-usd";
const IDLE_SECONDS = 2;
const WARM_UP = 10;
const atResolvers = (n: number) => `${n} resolver${n === 1 ? "" : "s"}`;

/** One of the two Workers as the run asks it: a quote, and its resolvers for the length of `run`. */
export interface Side {
  name: "relay" | "floor";
  runtime: WorkerRuntime;
  /** A quote for taker `n`, asked as client `client` (bench/clients.ts): one per concurrent slot. */
  ask(n: number, client: number, phases?: Phases): Promise<QuoteTiming>;
  /** Its resolvers, in a thread of their own, for the length of `run`. */
  withResolvers<T>(count: number, run: (fleet: FleetThread) => Promise<T>): Promise<T>;
}

export function relaySide(runtime: WorkerRuntime): Side {
  return {
    name: "relay",
    runtime,
    ask: (n, client, phases) => quote(runtime.directUrl, taker(n), ONE_CORRIDOR[0] as string, client, phases),
    withResolvers: (count, run) => withFleet(runtime.directUrl, count, run),
  };
}

async function floorQuote(base: string, n: number, client: number): Promise<QuoteTiming> {
  const started = performance.now();
  const res = await fetch(`${base}/quote?corridor=${FLOOR_CORRIDOR}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(client) },
    body: JSON.stringify({ sellToken: CNGN, buyToken: ONE_CORRIDOR[0], sellAmount: SELL_AMOUNT, taker: taker(n) }),
  });
  const text = await res.text();
  const latency = performance.now() - started;
  if (res.status !== 200) throw new QuoteFailed(res.status, text);
  const body = JSON.parse(text) as FloorQuote;
  if (body.outputAmount === null) throw new QuoteFailed(res.status, text);
  const slowest = Math.max(...body.offers.map((o) => o.latencyMs));
  return {
    latency,
    overhead: latency - slowest,
    relayOverhead: Number.NaN,
    phases: new Map(),
    offers: body.offers.length,
  };
}

export function floorSide(floor: FloorProcess): Side {
  const url = floor.runtime.directUrl;
  return {
    name: "floor",
    runtime: floor.runtime,
    ask: (n, client) => floorQuote(url, n, client),
    async withResolvers(count, run) {
      const fleet = await startFleetThread(new URL("./floor-fleet-worker.ts", import.meta.url), {
        url,
        corridor: FLOOR_CORRIDOR,
        count,
        latencyMs: REPLY_LATENCY_MS,
      });
      try {
        return await run(fleet);
      } finally {
        await fleet.stop();
      }
    },
  };
}

/**
 * The relay's overhead of each quote split by its `Server-Timing` phases (docs/api.md, "Server-Timing"):
 * the parts add up to the overhead quote by quote, so their means add up to its mean.
 */
class OverheadSplit {
  private readonly parts = new Map<string, number[]>();

  add(t: QuoteTiming): void {
    const [total, auction, ranking, storage] = ["total", "auction", "ranking", "storage"].map((n) => t.phases.get(n));
    if (total === undefined || auction === undefined || ranking === undefined || storage === undefined) return;
    const slowest = t.latency - t.overhead;
    this.push("outside the handler (taker's latency − total)", t.latency - total);
    this.push("handler around the auction (total − auction − ranking − storage)", total - auction - ranking - storage);
    this.push("ranking", ranking);
    this.push("storage", storage);
    this.push("auction past the slowest reply (auction − slowest)", auction - slowest);
  }

  private push(name: string, ms: number): void {
    const list = this.parts.get(name) ?? [];
    list.push(ms);
    this.parts.set(name, list);
  }

  describe(): string {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return [...this.parts]
      .map(([name, xs]) => `${name} mean ${fmt(mean(xs))}, p50 ${fmt(percentile(xs, 50))}`)
      .join("; ");
  }
}

/**
 * A bare request on each, alternating, with no resolvers: the relay's `GET /v1/config` (middleware, a
 * cached record) and the floor's `GET /health`, timed at the client: each Worker's own HTTP path.
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

/** Each side's CPU ms a second with its resolvers connected and no quotes, over the same seconds. */
async function idleCpu(sides: readonly Side[]): Promise<number[]> {
  const before = sides.map((s) => cpuMs(s.runtime.workerPids));
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  return sides.map((s, i) => (cpuMs(s.runtime.workerPids) - (before[i] as number)) / IDLE_SECONDS);
}

/** `n` quotes on each side one at a time, alternating; per side its sample and CPU ms per quote. */
async function alternating(sides: readonly Side[], n: number, relayPhases: Phases, relaySplit: OverheadSplit) {
  // A warm-up first, so that no measured quote wakes an object or loads code.
  for (let i = 0; i < Math.max(WARM_UP, TAKER_POOL); i++) for (const side of sides) await side.ask(i, 0);
  const samples = sides.map(() => new Sample());
  const before = sides.map((s) => cpuMs(s.runtime.workerPids));
  for (let i = 0; i < n; i++) {
    for (const [k, side] of sides.entries()) {
      await quiet();
      const timing = await side.ask(WARM_UP + i, 0, side.name === "relay" ? relayPhases : undefined);
      samples[k]?.add(timing);
      if (side.name === "relay") relaySplit.add(timing);
    }
  }
  return sides.map((s, k) => ({
    sample: samples[k] as Sample,
    cpuPerQuote: (cpuMs(s.runtime.workerPids) - (before[k] as number)) / n,
  }));
}

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
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (performance.now() < until) {
        try {
          // Read after the await: `offers += await …` would add to the count as it was before it.
          const answer = await side.ask(nextTaker++, client);
          offers += answer.offers;
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
  };
}

/**
 * Each side under load for `seconds` in two halves, in the order relay, floor, floor, relay: quotes
 * answered with a price per second, and the Worker's CPU per quote (a failed auction costs CPU too).
 */
async function underLoad(relay: Side, floor: Side, fleets: Map<Side, FleetThread>, options: QuoteRunOptions) {
  const keys = ["done", "failed", "seconds", "cpuMs", "resolversMs", "machineMs", "offers"] as const;
  const totals = new Map<Side, Load>(
    [relay, floor].map((s) => [s, Object.fromEntries(keys.map((k) => [k, 0])) as unknown as Load]),
  );
  for (const side of [relay, floor, floor, relay]) {
    const part = await load(side, fleets.get(side) as FleetThread, options.seconds / 2, options.concurrency);
    const total = totals.get(side) as Load;
    for (const key of keys) total[key] += part[key];
  }
  return [relay, floor].map((s) => {
    const t = totals.get(s) as Load;
    const ms = t.seconds * 1000;
    return {
      perSecond: t.done / t.seconds,
      cpuPerQuote: t.cpuMs / (t.done + t.failed),
      failed: t.failed,
      offersPerQuote: t.offers / t.done,
      // Shares of one core: the Worker's process, its resolvers' thread, and the whole machine.
      shares: { worker: t.cpuMs / ms, resolvers: t.resolversMs / ms, machine: t.machineMs / ms },
    };
  });
}

interface SideFigures {
  sample: Sample;
  cpuOneAtATime: number;
  idleCpuMsPerS: number;
  perSecond: number;
  cpuPerQuote: number;
  failed: number;
  offersPerQuote: number;
  shares: { worker: number; resolvers: number; machine: number };
}

interface Row {
  resolvers: number;
  relay: SideFigures;
  floor: SideFigures;
}

async function measureAt(count: number, relay: Side, floor: Side, options: QuoteRunOptions): Promise<Row> {
  return relay.withResolvers(count, (relayFleet) =>
    floor.withResolvers(count, async (floorFleet) => {
      const idle = await idleCpu([relay, floor]);
      const phases = new Phases();
      const split = new OverheadSplit();
      const seq = await alternating([relay, floor], options.quotes, phases, split);
      const fleets = new Map([
        [relay, relayFleet],
        [floor, floorFleet],
      ]);
      const loaded = await underLoad(relay, floor, fleets, options);
      const figures = (k: number): SideFigures => {
        const s = seq[k] as (typeof seq)[number];
        const l = loaded[k] as (typeof loaded)[number];
        return {
          sample: s.sample,
          cpuOneAtATime: s.cpuPerQuote,
          idleCpuMsPerS: idle[k] as number,
          perSecond: l.perSecond,
          cpuPerQuote: l.cpuPerQuote,
          failed: l.failed,
          offersPerQuote: l.offersPerQuote,
          shares: l.shares,
        };
      };
      const row: Row = { resolvers: count, relay: figures(0), floor: figures(1) };
      const describe = (name: string, f: SideFigures) =>
        `   ${name}: ${f.sample.describe()}\n` +
        `          CPU per quote ${fmt(f.cpuPerQuote)} at full load, ${fmt(f.cpuOneAtATime)} one at a time` +
        ` (idle ${f.idleCpuMsPerS.toFixed(1)} ms/s) | ${f.perSecond.toFixed(0)} quotes/s on one corridor` +
        (f.failed ? ` (${f.failed} auctions under load ended without a price, not counted)` : "") +
        `\n          under load: ${f.offersPerQuote.toFixed(1)} offers a quote; in cores busy: the Worker's process ${f.shares.worker.toFixed(2)}, its resolvers' ` +
        `thread ${f.shares.resolvers.toFixed(2)}, the whole machine ${f.shares.machine.toFixed(2)} of ${availableParallelism()}`;
      console.log(
        `${atResolvers(count)}, relay beside floor\n${describe("relay", row.relay)}\n` +
          `          the relay's phases (Server-Timing, p50 ms): ${phases.describe()}\n` +
          `          the relay's overhead by phase: ${split.describe()}\n${describe("floor", row.floor)}`,
      );
      return row;
    }),
  );
}

/** The quote targets (bench/README.md, "The floor") from the rows. */
function comparisons(rows: readonly Row[]): Comparison[] {
  const out: Comparison[] = [];
  // Overhead from 5 resolvers up; CPU at the fewest and the most resolvers (1 and 20 by default); quotes/s at 20 (bench/README.md, "Targets and where they stand").
  const gated = (n: number) => n >= 5;
  for (const r of rows) {
    const n = r.resolvers;
    const at = atResolvers(n);
    out.push({
      figure: `overhead p50, ${at}`,
      relay: r.relay.sample.overheadP50,
      floor: r.floor.sample.overheadP50,
      unit: "ms",
      against: "ratio",
      ...(gated(n) ? { target: { better: "lower", value: 1.5 } } : {}),
    });
    out.push({
      figure: `overhead p99, ${at}`,
      relay: r.relay.sample.overheadP99,
      floor: r.floor.sample.overheadP99,
      unit: "ms",
      against: "ratio",
      ...(gated(n) ? { target: { better: "lower", value: 1.5 } } : {}),
    });
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  for (const r of rows) {
    out.push({
      figure: `CPU per quote, full load, ${atResolvers(r.resolvers)}`,
      relay: r.relay.cpuPerQuote,
      floor: r.floor.cpuPerQuote,
      unit: "ms",
      against: "difference",
      ...(r === first || r === last ? { target: { better: "lower", value: 3 } } : {}),
    });
  }
  if (first && last && last.resolvers > first.resolvers) {
    const span = last.resolvers - first.resolvers;
    out.push({
      figure: `CPU per quote growth, ${first.resolvers} → ${last.resolvers} resolvers`,
      relay: (last.relay.cpuPerQuote - first.relay.cpuPerQuote) / span,
      floor: (last.floor.cpuPerQuote - first.floor.cpuPerQuote) / span,
      unit: "ms/resolver",
      against: "relay",
    });
  }
  for (const r of rows) {
    out.push({
      figure: `quotes/s on one corridor, ${atResolvers(r.resolvers)}`,
      relay: r.relay.perSecond,
      floor: r.floor.perSecond,
      unit: "q/s",
      against: "ratio",
      ...(r.resolvers === 20 ? { target: { better: "higher", value: 0.5 } } : {}),
    });
  }
  return out;
}

/** The relay and the floor started side by side, measured at every resolver count, and stopped. */
export async function compareQuotes(options: QuoteRunOptions = quoteRunOptions()): Promise<Comparison[]> {
  return withRelay(0, async (_, relayRuntime) => {
    const floor = await startFloor();
    try {
      console.log(
        `relay directly on ${relayRuntime.directUrl} (workerd ${relayRuntime.workerPids.join(", ")}); ` +
          `floor directly on ${floor.runtime.directUrl} (workerd ${floor.runtime.workerPids.join(", ")}); ` +
          `local observability ${localObservability()}\n`,
      );
      const bare = await bareRequests(relayRuntime, floor.runtime, options.quotes);
      const relay = relaySide(relayRuntime);
      const floorAsked = floorSide(floor);
      const rows: Row[] = [];
      for (const count of options.resolverCounts) rows.push(await measureAt(count, relay, floorAsked, options));
      return [
        {
          figure: "a bare request (GET /v1/config, GET /health), p50",
          relay: percentile(bare.relay, 50),
          floor: percentile(bare.floor, 50),
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
