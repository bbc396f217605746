/**
 * `npm run bench:paired -- <other checkout>`: two builds of the relay side by side (bench/README.md, "Paired
 * builds"): this checkout (A) and another (B, e.g. a `git worktree` with a change), each its own `wrangler
 * dev` with `BENCH_RESOLVERS` reference resolvers, asked under load in turns (A, B, B, A, …) for
 * `BENCH_ROUNDS` rounds of `BENCH_SECONDS` each; prints each window and each build's median CPU per quote
 * and quotes/s. A change's cost is B − A; two builds of the same code show what the pairing resolves.
 */
import { resolve } from "node:path";
import type { FleetThread } from "./fleet-thread";
import { load, relaySide, type Side } from "./floor-rfq";
import { withRelay } from "./rfq-relay";
import { percentile } from "./stats";

const RESOLVERS = Number(process.env.BENCH_RESOLVERS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);
const WARM_UP_SECONDS = 3;

/** The modules the pairing uses, from one checkout. */
interface Build {
  name: "A" | "B";
  withRelay: typeof withRelay;
  relaySide: typeof relaySide;
}

const other = process.argv[2];
if (!other) {
  console.error("usage: npm run bench:paired -- <path of the other checkout>");
  process.exit(2);
}
const a: Build = { name: "A", withRelay, relaySide };
const b: Build = {
  name: "B",
  withRelay: (await import(resolve(other, "bench/rfq-relay.ts"))).withRelay,
  relaySide: (await import(resolve(other, "bench/floor-rfq.ts"))).relaySide,
};

/** `CONCURRENCY` takers back to back on `side` for `seconds` (bench/floor-rfq.ts): its CPU per quote and quotes/s. */
async function window(side: Side, fleet: FleetThread, seconds: number) {
  const l = await load(side, fleet, seconds, CONCURRENCY);
  return { cpuPerQuote: l.cpuMs / (l.done + l.failed), perSecond: l.done / l.seconds };
}

async function paired(sides: Map<Build, { side: Side; fleet: FleetThread }>): Promise<void> {
  for (const { side, fleet } of sides.values()) await window(side, fleet, WARM_UP_SECONDS);
  const figures = new Map([...sides.keys()].map((build) => [build, { cpu: [] as number[], rate: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    for (const build of order) {
      const { side, fleet } = sides.get(build) as { side: Side; fleet: FleetThread };
      const w = await window(side, fleet, SECONDS);
      figures.get(build)?.cpu.push(w.cpuPerQuote);
      figures.get(build)?.rate.push(w.perSecond);
      console.log(
        `round ${round + 1} ${build.name}: ${w.cpuPerQuote.toFixed(2)} ms CPU a quote, ${w.perSecond.toFixed(0)} quotes/s`,
      );
    }
  }
  const median = (build: Build, key: "cpu" | "rate") => percentile(figures.get(build)?.[key] ?? [], 50);
  for (const build of [a, b]) {
    console.log(
      `${build.name} median: ${median(build, "cpu").toFixed(2)} ms CPU a quote, ${median(build, "rate").toFixed(0)} quotes/s`,
    );
  }
  console.log(`B − A: ${(median(b, "cpu") - median(a, "cpu")).toFixed(2)} ms CPU a quote`);
}

console.log(
  `A ${process.cwd()}, B ${resolve(other)}: ${RESOLVERS} resolvers each, ${ROUNDS} rounds of ${SECONDS} s, ${CONCURRENCY} takers`,
);
await a.withRelay(0, (_a, runtimeA) =>
  b.withRelay(0, async (_b, runtimeB) => {
    const sideA = a.relaySide(runtimeA);
    const sideB = b.relaySide(runtimeB);
    await sideA.withResolvers(RESOLVERS, (fleetA) =>
      sideB.withResolvers(RESOLVERS, (fleetB) =>
        paired(
          new Map([
            [a, { side: sideA, fleet: fleetA }],
            [b, { side: sideB, fleet: fleetB }],
          ]),
        ),
      ),
    );
  }),
);
