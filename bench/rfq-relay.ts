/**
 * The relay as the quote benchmarks ask it (bench/README.md, "How to measure"): `wrangler dev` with four cNGN
 * corridors and no oracle, reference resolvers in a thread of their own, takers in turn, and a quote's
 * overhead beyond its slowest reply. Shared by `npm run bench:rfq` (bench/rfq.ts) and the floor's
 * side-by-side run (bench/floor-rfq.ts).
 */

import { localConfig } from "../src/config/local";
import type { RelayConfig } from "../src/config/schema";
import type { Quote } from "../src/schemas/quote";
import { startRelay } from "../test/e2e/harness";
import { clientHeaders } from "./clients";
import { type FleetThread, startFleetThread } from "./fleet-thread";
import type { FleetRequest } from "./fleet-worker";
import { fetchTimed, fmt, type Phases, parseServerTiming, percentile } from "./stats";
import { findWorkerRuntime, type WorkerRuntime } from "./workerd";

export const REPLY_LATENCY_MS = 20;

export const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
/** Four USD tokens against cNGN make four corridors on one chain. */
export const USD_TOKENS = [
  "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  "0x00000000000000000000000000000000000000d1",
  "0x00000000000000000000000000000000000000d2",
  "0x00000000000000000000000000000000000000d3",
];
export const ONE_CORRIDOR = USD_TOKENS.slice(0, 1);
/** What every quote of the benchmarks sells. */
export const SELL_AMOUNT = "1580000000";

export function benchConfig(): RelayConfig {
  const config = structuredClone(localConfig);
  const evm = config.chains[0];
  if (evm?.kind !== "evm") throw new Error("the local config starts with its EVM chain");
  evm.tokens.push(
    ...USD_TOKENS.slice(1).map((address, i) => ({
      symbol: `USD${i + 1}`,
      address,
      decimals: 6,
      minimum: null,
      minLegSellAmount: null,
    })),
  );
  // A part of 40 % of what the bench sells is a leg (bench/floor-parts.ts); a whole bid reads no part rules.
  const cngn = evm.tokens.find((t) => t.address === CNGN);
  if (cngn) cngn.minLegSellAmount = "100000000";
  // The bench measures the auction, not the oracle: no public sources are polled.
  config.oracle.corridors = [];
  config.oracle.natives = [];
  // One process stands for many clients (takers, and 20 resolvers' sockets): what they ask is still counted,
  // against limits it never reaches.
  config.limits = {
    ...config.limits,
    quotesPerSecond: 100_000,
    quoteBurst: 100_000,
    newSocketsPerMinute: 100_000,
    socketsPerClient: 100_000,
  };
  return config;
}

/**
 * A corridor admits 100 quotes per taker in 10 s (docs/api.md, "Limits"): takers take turns, enough of
 * them that 640 quotes/s stays clear of it.
 */
export const TAKER_POOL = 64;
const takers = Array.from({ length: TAKER_POOL }, (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, "0")}`);
export const taker = (i: number) => takers[i % takers.length] as string;

export interface QuoteTiming {
  latency: number;
  overhead: number;
  /** Inside the relay: the `quoted` timeline latency minus the slowest reply (NaN where not known). */
  relayOverhead: number;
  /** The answer's `Server-Timing` phases (docs/api.md, "Server-Timing"); empty where it has none. */
  phases: Map<string, number>;
  /** How many offers the answer ranks: the bids its auction took. */
  offers: number;
  /** How many legs fill it: one for a whole bid, more for parts of several makers (docs/legs.md). */
  legs: number;
}

/** A quote answered with an error: counted, not fatal, when the machine is too busy for the auction. */
export class QuoteFailed extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`quote failed: ${status} ${body.slice(0, 300)}`);
  }
}

/** A quote for `taker`, asked as client `client` (bench/clients.ts). */
export async function quote(
  base: string,
  taker: string,
  buyToken: string,
  client: number,
  phases?: Phases,
): Promise<QuoteTiming> {
  const started = performance.now();
  const res = await (phases ? fetchTimed(phases) : fetch)(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(client) },
    body: JSON.stringify({ sellToken: CNGN, buyToken, sellAmount: SELL_AMOUNT, taker }),
  });
  const body = (await res.json()) as Quote;
  const latency = performance.now() - started;
  if (res.status !== 200) throw new QuoteFailed(res.status, JSON.stringify(body));
  const slowest = Math.max(...body.offers.map((o) => o.latencyMs));
  const relayLatency = Number(body.timeline.find((t) => t.event === "quoted")?.detail?.latencyMs);
  return {
    latency,
    overhead: latency - slowest,
    relayOverhead: relayLatency - slowest,
    phases: parseServerTiming(res.headers.get("server-timing")),
    offers: body.offers.length,
    legs: body.legs.length,
  };
}

export class Sample {
  readonly latencies: number[] = [];
  readonly overheads: number[] = [];
  readonly relayOverheads: number[] = [];
  add(t: QuoteTiming) {
    this.latencies.push(t.latency);
    this.overheads.push(t.overhead);
    this.relayOverheads.push(t.relayOverhead);
  }
  get overheadP50() {
    return percentile(this.overheads, 50);
  }
  get overheadP99() {
    return percentile(this.overheads, 99);
  }
  describe(): string {
    const p = (xs: number[]) => `${fmt(percentile(xs, 50))} / ${fmt(percentile(xs, 99))}`;
    const inside = this.relayOverheads.some((x) => !Number.isNaN(x))
      ? ` | inside the relay ${p(this.relayOverheads)}`
      : "";
    return `latency ${p(this.latencies)} | overhead ${p(this.overheads)}${inside}`;
  }
}

/**
 * Reference resolvers on `url` (bench/fleet-worker.ts) for the length of `run`, all fresh on the relay;
 * `more` narrows their corridors or makes some bid parts.
 */
export async function withFleet<T>(
  url: string,
  count: number,
  run: (fleet: FleetThread) => Promise<T>,
  more: Omit<FleetRequest, "relayUrl" | "count" | "latencyMs" | "token"> = {},
): Promise<T> {
  const request: FleetRequest = { relayUrl: url, count, latencyMs: REPLY_LATENCY_MS, token: CNGN, ...more };
  const fleet = await startFleetThread(new URL("./fleet-worker.ts", import.meta.url), request);
  try {
    return await run(fleet);
  } finally {
    await fleet.stop();
  }
}

/** A relay with `SIMULATED_D1_LATENCY_MS` set, for the length of `run`, given its proxy URL and runtime. */
export async function withRelay<T>(
  d1LatencyMs: number,
  run: (proxyUrl: string, runtime: WorkerRuntime) => Promise<T>,
): Promise<T> {
  const relay = await startRelay({
    vars: { RELAY_CONFIG: JSON.stringify(benchConfig()), SIMULATED_D1_LATENCY_MS: String(d1LatencyMs) },
  });
  try {
    return await run(relay.url, await findWorkerRuntime(relay.url));
  } finally {
    await relay.stop();
  }
}
