/**
 * The three Workers a side-by-side quote run asks (bench/README.md, "The floor"): the relay, the
 * required-work floor (the work the spec requires, by the relay's own code: the targets' reference) and
 * the bare floor (the runtime's cost of the same shapes alone), each as a quote and its resolvers.
 */
import { clientHeaders } from "./clients";
import { type FleetThread, startFleetThread } from "./fleet-thread";
import type { FloorQuote } from "./floor/protocol";
import type { FloorProcess } from "./floor-dev";
import {
  CNGN,
  ONE_CORRIDOR,
  QuoteFailed,
  type QuoteTiming,
  quote,
  REPLY_LATENCY_MS,
  SELL_AMOUNT,
  taker,
  withFleet,
} from "./rfq-relay";
import type { Phases } from "./stats";
import type { WorkerRuntime } from "./workerd";

const FLOOR_CORRIDOR = "cngn-usd";

export type SideName = "relay" | "required" | "bare";

/** How a run's output names each side. */
export const SIDE_LABEL: Record<SideName, string> = {
  relay: "relay",
  required: "required-work floor",
  bare: "bare floor",
};

/** One of the Workers as the run asks it: a quote, and its resolvers for the length of `run`. */
export interface Side {
  name: SideName;
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

async function floorQuote(url: string, n: number, client: number): Promise<QuoteTiming> {
  const started = performance.now();
  const res = await fetch(url, {
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
    legs: 1,
  };
}

/**
 * A floor of the floor's Worker: the bare one (`/quote`, bench/floor-fleet-worker.ts) or the required-work
 * one (`/required/quote`, bench/floor-required-fleet-worker.ts, whose resolvers sign their bids).
 */
export function floorSide(floor: FloorProcess, name: "bare" | "required" = "bare"): Side {
  const base = floor.runtime.directUrl;
  const prefix = name === "required" ? "/required" : "";
  const fleetScript = name === "required" ? "./floor-required-fleet-worker.ts" : "./floor-fleet-worker.ts";
  return {
    name,
    runtime: floor.runtime,
    ask: (n, client) => floorQuote(`${base}${prefix}/quote?corridor=${FLOOR_CORRIDOR}`, n, client),
    async withResolvers(count, run) {
      const fleet = await startFleetThread(new URL(fleetScript, import.meta.url), {
        url: base,
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
