/**
 * RFQ benchmark: quote latency, the relay's own overhead and sustained quotes/s against `wrangler dev`,
 * with 1, 5 and 20 reference resolvers over real sockets. `npm run bench:rfq` (see bench/README.md).
 *
 * Overhead of a quote = its wall-clock latency at the taker minus the slowest asked resolver's reply
 * latency as the relay measured it (the largest `offers[].latencyMs`): what the relay itself adds.
 */

import { Worker } from "node:worker_threads";
import { localConfig } from "../src/config/local";
import type { RelayConfig } from "../src/config/schema";
import type { QuoteRecord } from "../src/schemas/quote";
import { startRelay } from "../test/e2e/harness";
import { fmt, percentile, verdict } from "./stats";

const REPLY_LATENCY_MS = 20;
const SEQUENTIAL_QUOTES = Number(process.env.BENCH_QUOTES ?? 200);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);

const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
/** Four USD tokens against cNGN make four corridors on one chain. */
const USD_TOKENS = [
  "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  "0x00000000000000000000000000000000000000d1",
  "0x00000000000000000000000000000000000000d2",
  "0x00000000000000000000000000000000000000d3",
];

function benchConfig(): RelayConfig {
  const config = structuredClone(localConfig);
  const evm = config.chains[0];
  if (evm?.kind !== "evm") throw new Error("the local config starts with its EVM chain");
  evm.tokens.push(
    ...USD_TOKENS.slice(1).map((address, i) => ({ symbol: `USD${i + 1}`, address, decimals: 6, minimum: null })),
  );
  // The bench measures the auction, not the oracle: no public sources are polled.
  config.oracle.corridors = [];
  return config;
}

const takers = Array.from({ length: 64 }, (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, "0")}`);

async function quote(base: string, taker: string, buyToken: string) {
  const started = performance.now();
  const res = await fetch(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sellToken: CNGN, buyToken, sellAmount: "1580000000", taker }),
  });
  const body = (await res.json()) as QuoteRecord;
  const latency = performance.now() - started;
  if (res.status !== 200) throw new Error(`quote failed: ${res.status} ${JSON.stringify(body)}`);
  const slowest = Math.max(...body.offers.map((o) => o.latencyMs));
  const relayLatency = Number(body.timeline.find((t) => t.event === "quoted")?.detail?.latencyMs);
  return { latency, overhead: latency - slowest, relayOverhead: relayLatency - slowest };
}

async function sequential(base: string, n: number) {
  const latencies: number[] = [];
  const overheads: number[] = [];
  const relayOverheads: number[] = [];
  // Takers take turns: one alone would meet the relay's per-taker rate limit.
  const taker = (i: number) => takers[i % takers.length] as string;
  for (let i = 0; i < 10; i++) await quote(base, taker(i), USD_TOKENS[0] as string);
  for (let i = 0; i < n; i++) {
    const r = await quote(base, taker(i), USD_TOKENS[0] as string);
    latencies.push(r.latency);
    overheads.push(r.overhead);
    relayOverheads.push(r.relayOverhead);
  }
  return { latencies, overheads, relayOverheads };
}

async function throughput(base: string, corridors: string[]): Promise<number> {
  const until = performance.now() + THROUGHPUT_SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const taker = takers[w] as string;
      const buyToken = corridors[w % corridors.length] as string;
      while (performance.now() < until) {
        await quote(base, taker, buyToken);
        done++;
      }
    }),
  );
  return done / THROUGHPUT_SECONDS;
}

/** Reference resolvers in their own thread; resolves once they are all fresh on the relay. */
async function startFleet(relayUrl: string, count: number): Promise<{ stop(): Promise<void> }> {
  const worker = new Worker(new URL("./fleet-worker.ts", import.meta.url), {
    workerData: { relayUrl, count, latencyMs: REPLY_LATENCY_MS, token: CNGN },
    execArgv: ["--import", "tsx"],
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return {
    async stop() {
      const stopped = new Promise((r) => worker.once("message", r));
      worker.postMessage("stop");
      await stopped;
      await worker.terminate();
    },
  };
}

async function main() {
  const relay = await startRelay({ vars: { RELAY_CONFIG: JSON.stringify(benchConfig()) } });
  const summary: string[] = [];
  let fleet: { stop(): Promise<void> } | null = null;
  try {
    for (const count of [1, 5, 20]) {
      fleet = await startFleet(relay.url, count);
      const { latencies, overheads, relayOverheads } = await sequential(relay.url, SEQUENTIAL_QUOTES);
      const one = await throughput(relay.url, USD_TOKENS.slice(0, 1));
      const four = await throughput(relay.url, USD_TOKENS);
      console.log(
        `${String(count).padStart(2)} resolvers: latency p50 ${fmt(percentile(latencies, 50))} p99 ${fmt(percentile(latencies, 99))}` +
          ` | overhead p50 ${fmt(percentile(overheads, 50))} p99 ${fmt(percentile(overheads, 99))}` +
          ` (inside the relay p50 ${fmt(percentile(relayOverheads, 50))} p99 ${fmt(percentile(relayOverheads, 99))})` +
          ` | ${one.toFixed(0)} quotes/s on 1 corridor, ${four.toFixed(0)} on 4`,
      );
      if (count === 20) {
        summary.push(verdict("overhead p50, 20 resolvers", percentile(overheads, 50), 5, "lower", "ms"));
        summary.push(verdict("overhead p99, 20 resolvers", percentile(overheads, 99), 25, "lower", "ms"));
      }
      if (count === 1) summary.push(verdict("quotes/s on one corridor, 1 resolver", one, 200, "higher", "q/s"));
      await fleet.stop();
      fleet = null;
    }
    console.log(`\n${summary.join("\n")}`);
  } finally {
    await fleet?.stop();
    await relay.stop();
  }
}

await main();
