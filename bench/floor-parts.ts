/**
 * Quotes with parts beside quotes of whole bids only, on one relay in one run (bench/README.md, "Parts
 * beside whole bids"): two corridors of the same relay, cNGN / USDC served by `resolvers` reference
 * resolvers that all bid the whole, and cNGN / USD1 by as many, on keys of their own, of which `bidders`
 * bid parts (bench/part-bidders.ts). Quotes one at a time in turns (which corridor goes first alternates),
 * then each corridor under load in mirrored turns (bench/floor-load.ts), so the shared machine's drift
 * falls on both alike. The target: with parts, a quote's overhead (p50 and p99) and its CPU at full load
 * within 10 % of whole bids only.
 */
import type { FleetThread } from "./fleet-thread";
import type { FleetRequest } from "./fleet-worker";
import { type Loaded, underLoad } from "./floor-load";
import type { QuoteRunOptions } from "./floor-rfq";
import type { Side } from "./floor-sides";
import { type Comparison, comparisonTable } from "./floor-table";
import { quote, Sample, SELL_AMOUNT, USD_TOKENS, withFleet, withRelay } from "./rfq-relay";
import { fmt, quiet } from "./stats";
import { cpuMs, type WorkerRuntime } from "./workerd";

export interface PartsRunOptions extends Pick<QuoteRunOptions, "quotes" | "seconds" | "concurrency"> {
  /** Resolvers on each corridor. */
  resolvers: number;
  /** How many of the second corridor's resolvers bid parts. */
  bidders: number;
  /** The most a part is priced over its bidder's rate (bench/part-bidders.ts). */
  maxPremiumBps: number;
}

/**
 * At the run's most resolvers (20 by default), half of them bidding parts unless `BENCH_PART_BIDDERS`
 * says how many; `BENCH_PART_PREMIUM_BPS` (380) composes about half the quotes of 20 into two legs with
 * the bench's fallback gas fee, a leg's share of which is about 3 % of what the bench sells.
 */
export function partsRunOptions(quotes: QuoteRunOptions): PartsRunOptions {
  const resolvers = Math.max(...quotes.resolverCounts);
  return {
    quotes: quotes.quotes,
    seconds: quotes.seconds,
    concurrency: quotes.concurrency,
    resolvers,
    bidders: Number(process.env.BENCH_PART_BIDDERS ?? Math.floor(resolvers / 2)),
    maxPremiumBps: Number(process.env.BENCH_PART_PREMIUM_BPS ?? 380),
  };
}

const TARGET = 1.1;
/**
 * Quotes asked on each corridor before the measured ones. The legs' path (composing, a part's digest, the
 * legs' holds) runs in about half of the parts corridor's quotes: after 10 warm-up quotes its first measured
 * ones still took 5 to 15 ms inside the relay where the rest took 2, so both corridors warm up on 50.
 */
const WARM_UP = 50;

/**
 * Each quote a taker of its own: a taker's open quotes hold what a part bidder's legs deliver to it (its
 * inventory is the share it bids), so a taker asked again within the quote's life would get a smaller
 * part, which no other part completes.
 */
let nextTaker = 0;
const freshTaker = () => `0x${(0xb_0000_0000 + nextTaker++).toString(16).padStart(40, "0")}`;

interface Corridor {
  side: Side;
  label: string;
  fleet: Omit<FleetRequest, "relayUrl" | "count" | "latencyMs" | "token">;
}

function corridor(runtime: WorkerRuntime, label: string, buyToken: string, fleet: Corridor["fleet"]): Corridor {
  const side: Side = {
    name: "relay",
    runtime,
    ask: (_n, client) => quote(runtime.directUrl, freshTaker(), buyToken, client),
    withResolvers: (count, run) => withFleet(runtime.directUrl, count, run, fleet),
  };
  return { side, label, fleet };
}

interface OneAtATime {
  sample: Sample;
  cpuPerQuote: number;
  /** Answers filled by two legs or more. */
  composed: number;
}

/** `n` quotes on each corridor one at a time, in turns, each in its own CPU window (the quote and the quiet after it). */
async function oneAtATime(sides: readonly Side[], n: number): Promise<OneAtATime[]> {
  for (let i = 0; i < WARM_UP; i++) for (const side of sides) await side.ask(0, 0);
  const out = sides.map(() => ({ sample: new Sample(), cpu: 0, composed: 0 }));
  await quiet();
  for (let i = 0; i < n; i++) {
    const order = i % 2 === 0 ? [...sides.keys()] : [...sides.keys()].reverse();
    for (const k of order) {
      const side = sides[k] as Side;
      const figures = out[k] as (typeof out)[number];
      const before = cpuMs(side.runtime.workerPids);
      const timing = await side.ask(0, 0);
      await quiet();
      figures.cpu += cpuMs(side.runtime.workerPids) - before;
      figures.sample.add(timing);
      if (timing.legs > 1) figures.composed++;
    }
  }
  return out.map((f) => ({ sample: f.sample, cpuPerQuote: f.cpu / n, composed: f.composed }));
}

function describe(label: string, seq: OneAtATime, loaded: Loaded, n: number): string {
  return (
    `   ${label}: ${seq.sample.describe()}\n` +
    `          CPU per quote ${fmt(loaded.cpuPerQuote)} at full load, ${fmt(seq.cpuPerQuote)} one at a time | ` +
    `${loaded.perSecond.toFixed(0)} quotes/s | ${loaded.offersPerQuote.toFixed(1)} offers a quote under load\n` +
    `          answered with 2+ legs: ${seq.composed} of ${n} one at a time, ` +
    `${(loaded.composedShare * 100).toFixed(0)} % under load` +
    (loaded.failed ? ` (${loaded.failed} auctions under load ended without a price, not counted)` : "")
  );
}

function rows(whole: [OneAtATime, Loaded], parts: [OneAtATime, Loaded], at: string): Comparison[] {
  const row = (
    figure: string,
    value: (f: [OneAtATime, Loaded]) => number,
    unit: string,
    targeted: boolean,
  ): Comparison => ({
    figure: `${figure}, ${at}`,
    relay: value(parts),
    floor: value(whole),
    unit,
    against: "ratio",
    ...(targeted ? { target: { better: "lower" as const, value: TARGET } } : {}),
  });
  return [
    row("overhead p50", ([q]) => q.sample.overheadP50, "ms", true),
    row("overhead p99", ([q]) => q.sample.overheadP99, "ms", true),
    row("CPU per quote, full load", ([, l]) => l.cpuPerQuote, "ms", true),
    row("CPU per quote, one at a time", ([q]) => q.cpuPerQuote, "ms", false),
    row("quotes/s on one corridor", ([, l]) => l.perSecond, "q/s", false),
  ];
}

/** The relay started, both corridors' fleets connected, measured, and stopped; the table printed and returned. */
export async function compareParts(options: PartsRunOptions): Promise<Comparison[]> {
  const { resolvers, bidders } = options;
  return withRelay(0, async (_, runtime) => {
    const whole = corridor(runtime, "whole bids only", USD_TOKENS[0] as string, { otherToken: USD_TOKENS[0] });
    const parts = corridor(runtime, `${bidders} of ${resolvers} bidding parts`, USD_TOKENS[1] as string, {
      otherToken: USD_TOKENS[1],
      firstIndex: 1 + resolvers,
      parts: { bidders, wholeSell: SELL_AMOUNT, maxPremiumBps: options.maxPremiumBps },
    });
    const sides = [whole.side, parts.side];
    const measured = await whole.side.withResolvers(resolvers, (wholeFleet: FleetThread) =>
      parts.side.withResolvers(resolvers, async (partsFleet: FleetThread) => {
        const seq = await oneAtATime(sides, options.quotes);
        const fleets = new Map([
          [whole.side, wholeFleet],
          [parts.side, partsFleet],
        ]);
        const loaded = await underLoad(sides, fleets, options.seconds, options.concurrency);
        return [0, 1].map((k) => [seq[k], loaded[k]] as [OneAtATime, Loaded]);
      }),
    );
    const [w, p] = measured as [[OneAtATime, Loaded], [OneAtATime, Loaded]];
    const at = `${resolvers} resolvers`;
    console.log(
      `${at} on each corridor of one relay, whole bids only beside ${bidders} bidding parts\n` +
        `${describe(whole.label, w[0], w[1], options.quotes)}\n${describe(parts.label, p[0], p[1], options.quotes)}`,
    );
    const table = rows(w, p, at);
    console.log(
      `\n${comparisonTable(table, {
        relay: "With parts",
        floor: "Whole bids only",
        against: "With parts against whole",
        target: "Target",
      })}`,
    );
    return table;
  });
}
