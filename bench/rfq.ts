/**
 * RFQ benchmark: quote latency, the relay's own overhead, the Worker's CPU time per quote and sustained
 * quotes/s against `wrangler dev`, with 1, 5 and 20 reference resolvers over real sockets; then the
 * overhead again on a relay whose D1 is made 100 ms slower; then the relay beside the floor
 * (bench/floor-rfq.ts). `npm run bench:rfq` (see bench/README.md).
 *
 * Overhead of a quote = its wall-clock latency at the taker minus the slowest asked resolver's reply
 * latency as the relay measured it (the largest `offers[].latencyMs`): what the relay itself adds.
 * Every figure is taken twice in the same run where it can be: through `wrangler dev`'s proxy and
 * against the Worker's own runtime behind it (bench/workerd.ts).
 */

import type { Quote } from "../src/schemas/quote";
import { clientHeaders } from "./clients";
import { compareQuotes } from "./floor-rfq";
import { comparisonTable } from "./floor-table";
import {
  CNGN,
  ONE_CORRIDOR,
  QuoteFailed,
  quote,
  Sample,
  SELL_AMOUNT,
  taker,
  USD_TOKENS,
  withFleet,
  withRelay,
} from "./rfq-relay";
import { fmt, machineLoad, notMeasured, Phases, percentile, reported, verdict } from "./stats";
import { cpuMs, type WorkerRuntime } from "./workerd";

const SEQUENTIAL_QUOTES = Number(process.env.BENCH_QUOTES ?? 200);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);
const RESOLVER_COUNTS = (process.env.BENCH_RESOLVERS ?? "1,5,20").split(",").map(Number);
/** The "D1 made slower" run; 0 skips it. */
const SLOW_D1_MS = Number(process.env.BENCH_SLOW_D1_MS ?? 100);
const SLOW_D1_QUOTES = Number(process.env.BENCH_SLOW_D1_QUOTES ?? 50);
const IDLE_SECONDS = 2;
/** The relay beside the floor after the relay's own figures; 0 skips it. */
const WITH_FLOOR = process.env.BENCH_FLOOR !== "0";

/**
 * `n` quotes one at a time, taking turns between the given URLs (wrangler's proxy, the Worker
 * directly), so a slow moment of the shared machine falls on both alike. Returns a sample per URL and
 * the Worker's CPU time per quote over all of them.
 */
async function sequential(urls: readonly string[], n: number, runtime: WorkerRuntime) {
  for (let i = 0; i < 10; i++) await quote(urls[i % urls.length] as string, taker(i), ONE_CORRIDOR[0] as string, 0);
  const samples = urls.map(() => new Sample());
  const phases = new Phases();
  const cpuBefore = cpuMs(runtime.workerPids);
  for (let i = 0; i < n * urls.length; i++) {
    const url = urls[i % urls.length] as string;
    samples[i % urls.length]?.add(await quote(url, taker(i), ONE_CORRIDOR[0] as string, 0, phases));
  }
  return { samples, phases, cpuPerQuote: (cpuMs(runtime.workerPids) - cpuBefore) / (n * urls.length) };
}

/**
 * `CONCURRENCY` takers asking back to back for `THROUGHPUT_SECONDS`, each a client of its own
 * (bench/clients.ts): quotes answered with a price per
 * second, CPU ms per answer, and how many auctions failed (no bid in time on an overloaded machine).
 */
async function throughput(base: string, corridors: readonly string[], runtime: WorkerRuntime) {
  const cpuBefore = cpuMs(runtime.workerPids);
  const started = performance.now();
  const until = started + THROUGHPUT_SECONDS * 1000;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const buyToken = corridors[w % corridors.length] as string;
      for (let k = 0; performance.now() < until; k++) {
        try {
          await quote(base, taker(w + k * CONCURRENCY), buyToken, w);
          done++;
        } catch (e) {
          if (!(e instanceof QuoteFailed)) throw e;
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // A failed auction costs the Worker too: CPU is shared over every answer.
  const cpuPerQuote = (cpuMs(runtime.workerPids) - cpuBefore) / (done + failed);
  return { perSecond: done / seconds, cpuPerQuote, failed };
}

/** The Worker's CPU ms per second with the resolvers connected and no quotes: heartbeats, alarms. */
async function idleCpu(runtime: WorkerRuntime): Promise<number> {
  const before = cpuMs(runtime.workerPids);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  return (cpuMs(runtime.workerPids) - before) / IDLE_SECONDS;
}

interface Row {
  resolvers: number;
  proxied: Sample;
  direct: Sample;
  idleCpuMsPerS: number;
  cpuSequential: number;
  cpuThroughput: number;
  oneDirect: number;
  oneProxied: number;
  fourDirect: number;
  /** Auctions that ended without a price in the three throughput runs. */
  failed: number;
}

async function measureResolvers(count: number, proxy: string, runtime: WorkerRuntime): Promise<Row> {
  const idleCpuMsPerS = await idleCpu(runtime);
  const { samples, phases, cpuPerQuote } = await sequential([proxy, runtime.directUrl], SEQUENTIAL_QUOTES, runtime);
  const one = await throughput(runtime.directUrl, ONE_CORRIDOR, runtime);
  const oneProxied = await throughput(proxy, ONE_CORRIDOR, runtime);
  const four = await throughput(runtime.directUrl, USD_TOKENS, runtime);
  const [proxied, direct] = samples as [Sample, Sample];
  const row: Row = {
    resolvers: count,
    proxied,
    direct,
    idleCpuMsPerS,
    cpuSequential: cpuPerQuote,
    cpuThroughput: one.cpuPerQuote,
    oneDirect: one.perSecond,
    oneProxied: oneProxied.perSecond,
    fourDirect: four.perSecond,
    failed: one.failed + oneProxied.failed + four.failed,
  };
  console.log(
    `${String(count).padStart(2)} resolvers\n` +
      `   through wrangler dev: ${proxied.describe()}\n` +
      `   Worker directly:      ${direct.describe()}\n` +
      `   the relay's phases (Server-Timing, p50 ms): ${phases.describe()}\n` +
      `   Worker CPU per quote: ${fmt(row.cpuThroughput)} at full load, ${fmt(row.cpuSequential)} one at a time` +
      ` (idle with the resolvers connected: ${row.idleCpuMsPerS.toFixed(1)} ms/s, of which a quote at full load` +
      ` carries ${fmt(row.idleCpuMsPerS / row.oneDirect)})\n` +
      `   quotes/s: 1 corridor ${row.oneDirect.toFixed(0)} directly, ${row.oneProxied.toFixed(0)} through wrangler dev;` +
      ` 4 corridors ${row.fourDirect.toFixed(0)} directly` +
      (row.failed ? ` (${row.failed} auctions under load ended without a price, not counted)` : ""),
  );
  return row;
}

/**
 * Every resolver count on one relay, so the counts share its warm state, one fleet at a time. The
 * resolvers connect to the Worker directly, as they would reach Cloudflare's edge, not a local proxy.
 */
function measureAll(): Promise<Row[]> {
  return withRelay(0, async (proxyUrl, runtime) => {
    console.log(
      `wrangler dev on ${proxyUrl} (proxy: workerd ${runtime.proxyPid}); the Worker directly on ${runtime.directUrl}` +
        ` (workerd ${runtime.workerPids.join(", ")})\n`,
    );
    const rows: Row[] = [];
    for (const count of RESOLVER_COUNTS) {
      rows.push(await withFleet(runtime.directUrl, count, () => measureResolvers(count, proxyUrl, runtime)));
    }
    return rows;
  });
}

async function summary(rows: Row[]): Promise<void> {
  const at = (n: number) => rows.find((r) => r.resolvers === n);
  const lines: string[] = [];
  const twenty = at(20);
  const single = at(1);
  if (twenty) {
    lines.push(reported("overhead p50, 20 resolvers, wrangler dev", twenty.proxied.overheadP50, "ms"));
    lines.push(reported("overhead p99, 20 resolvers, wrangler dev", twenty.proxied.overheadP99, "ms"));
    lines.push(verdict("overhead p50, 20 resolvers, Worker directly", twenty.direct.overheadP50, 3, "lower", "ms"));
    lines.push(verdict("overhead p99, 20 resolvers, Worker directly", twenty.direct.overheadP99, 10, "lower", "ms"));
  }
  for (const r of rows) {
    lines.push(verdict(`Worker CPU per quote, ${r.resolvers} resolvers`, r.cpuThroughput, 1.5, "lower", "ms"));
  }
  if (single && twenty) {
    lines.push(reported("CPU per quote, 20 resolvers ÷ 1 resolver", twenty.cpuThroughput / single.cpuThroughput, "×"));
  }
  if (single) lines.push(verdict("quotes/s on one corridor, 1 resolver", single.oneDirect, 300, "higher", "q/s"));
  if (twenty) lines.push(verdict("quotes/s on one corridor, 20 resolvers", twenty.oneDirect, 150, "higher", "q/s"));

  if (SLOW_D1_MS > 0 && twenty) {
    const slow = await slowD1Overhead();
    if (typeof slow === "string") lines.push(notMeasured(`overhead p50, D1 + ${SLOW_D1_MS} ms`, slow));
    else {
      console.log(
        `\n20 resolvers, D1 + ${SLOW_D1_MS} ms, Worker directly: ${slow.sample.describe()}` +
          ` | GET /v1/quotes/{id} p50 ${fmt(slow.readP50)}`,
      );
      const added = slow.sample.overheadP50 - twenty.direct.overheadP50;
      const name = `overhead p50 added by D1 + ${SLOW_D1_MS} ms`;
      if (slow.readP50 >= SLOW_D1_MS) lines.push(verdict(name, added, 2, "lower", "ms"));
      else {
        const why = `this Worker ignores SIMULATED_D1_LATENCY_MS (a D1 read took ${fmt(slow.readP50)}); difference ${fmt(added)}`;
        lines.push(notMeasured(name, why));
      }
    }
  }
  console.log(`\n${lines.join("\n")}\n${machineLoad()}`);
}

/**
 * p50 of `GET /v1/quotes/{id}`, one D1 read: with the knob honoured it takes at least the simulated
 * latency, so a shorter read means the Worker does not read `SIMULATED_D1_LATENCY_MS` (yet).
 */
async function d1ReadP50(base: string): Promise<number> {
  const res = await fetch(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(0) },
    body: JSON.stringify({ sellToken: CNGN, buyToken: ONE_CORRIDOR[0], sellAmount: SELL_AMOUNT, taker: taker(0) }),
  });
  const { quoteId } = (await res.json()) as Quote;
  const reads: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await (await fetch(`${base}/v1/quotes/${quoteId}`)).body?.cancel();
    reads.push(performance.now() - started);
  }
  return percentile(reads, 50);
}

/** Overhead with 20 resolvers, one quote at a time to the Worker directly, on a relay with slow D1. */
async function slowD1Overhead(): Promise<{ sample: Sample; readP50: number } | string> {
  try {
    return await withRelay(SLOW_D1_MS, (_, runtime) =>
      withFleet(runtime.directUrl, 20, async () => {
        const { samples } = await sequential([runtime.directUrl], SLOW_D1_QUOTES, runtime);
        return { sample: samples[0] as Sample, readP50: await d1ReadP50(runtime.directUrl) };
      }),
    );
  } catch (e) {
    return (e as Error).message.split("\n")[0] ?? String(e);
  }
}

async function main() {
  await summary(await measureAll());
  if (WITH_FLOOR) {
    console.log('\nThe relay beside the floor (bench/README.md, "The floor")\n');
    console.log(`\n${comparisonTable(await compareQuotes())}\n${machineLoad()}`);
  }
}

await main();
