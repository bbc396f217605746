/**
 * `npm run bench:perf`: where the Worker's process spends its CPU, by part of the runtime, on quotes at
 * `BENCH_RESOLVERS` resolvers under full load (the relay, then the floor of bench/floor/) and on a burst of
 * submissions (bench/README.md, "Where the
 * process's CPU goes"). Linux `perf` samples the relay's workerd (native code, the kernel and V8's
 * builtins by name; JavaScript the JIT compiled shows as addresses); each sample is counted once, in the
 * first part of `PARTS` its stack passes through. Needs `perf` on the PATH and the right to record (root,
 * or `kernel.perf_event_paranoid` ≤ 1).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { anvilPrivateKey, LOCAL_ACCOUNTS } from "../scripts/lib/local-stack";
import { burstOf, quoteAndSign, signedQuotes, startStack, submit, withRelay as withChainRelay } from "./execute-stack";
import { startFloor } from "./floor-dev";
import { floorSide, relaySide, type Side } from "./floor-rfq";
import { splitSamples } from "./perf-parts";
import { QuoteFailed, withRelay } from "./rfq-relay";
import { cpuMs, findWorkerRuntime, type WorkerRuntime } from "./workerd";

const RESOLVERS = Number(process.env.BENCH_RESOLVERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);
const BURST = Number(process.env.BENCH_BURST ?? 150);
const DATA = "/tmp/relay-bench-perf.data";

/** `perf record` on the Worker's process while `work` runs; what `work` returns, with CPU ms each and the split. */
async function recorded(runtime: WorkerRuntime, work: () => Promise<number>) {
  const perf: ChildProcess = spawn(
    "perf",
    ["record", "-F", "999", "-g", "-o", DATA, "-p", runtime.workerPids.join(",")],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  await new Promise((r) => setTimeout(r, 500));
  const before = cpuMs(runtime.workerPids);
  const count = await work();
  const cpu = cpuMs(runtime.workerPids) - before;
  perf.kill("SIGINT");
  await new Promise((r) => perf.once("exit", r));
  const script = execFileSync("perf", ["script", "-i", DATA, "-F", "comm,ip,sym"], {
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  return { count, cpuEach: cpu / count, split: splitSamples(script) };
}

type Recorded = Awaited<ReturnType<typeof recorded>>;

/** Each part's CPU ms per operation, for each side recorded, side by side. */
function print(what: string, sides: readonly { name: string; r: Recorded }[]) {
  console.log(`\n${what}`);
  console.log(
    sides.map(({ name, r }) => `${name}: ${r.count}, ${r.cpuEach.toFixed(2)} ms of its process's CPU each`).join("; "),
  );
  const parts = [...new Set(sides.flatMap(({ r }) => r.split.map((p) => p.part)))];
  const msOf = (r: Recorded, part: string) => (r.split.find((p) => p.part === part)?.share ?? 0) * r.cpuEach;
  const first = sides[0]?.r;
  if (first) parts.sort((a, b) => msOf(first, b) - msOf(first, a));
  console.log(`${sides.map(({ name }) => name.padStart(10)).join("")}  ms each`);
  for (const part of parts) {
    const cells = sides.map(({ r }) => msOf(r, part).toFixed(2).padStart(10)).join("");
    console.log(`${cells}  ${part}`);
  }
}

/** Quotes back to back on one corridor with `RESOLVERS` resolvers, recorded. */
function loaded(side: Side): Promise<Recorded> {
  return side.withResolvers(RESOLVERS, async () => {
    for (let i = 0; i < 20; i++) await side.ask(i, 0);
    let n = 0;
    return recorded(side.runtime, async () => {
      const end = Date.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, client) => {
          while (Date.now() < end) {
            await side.ask(n, client).catch((e: unknown) => {
              if (!(e instanceof QuoteFailed)) throw e;
            });
            n += 1;
          }
        }),
      );
      return n;
    });
  });
}

async function quotes(): Promise<void> {
  const floor = await startFloor();
  try {
    await withRelay(0, async (_proxyUrl, runtime) => {
      const relay = await loaded(relaySide(runtime));
      const bare = await loaded(floorSide(floor));
      print(`quotes at ${RESOLVERS} resolvers, ${CONCURRENCY} takers for ${SECONDS} s on each, the relay first`, [
        { name: "relay", r: relay },
        { name: "floor", r: bare },
      ]);
    });
  } finally {
    await floor.stop();
  }
}

async function submissions(): Promise<void> {
  const stack = await startStack();
  try {
    await withChainRelay(stack, [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)], async (relayUrl) => {
      const runtime = await findWorkerRuntime(relayUrl);
      const base = runtime.directUrl;
      for (let i = 0; i < 10; i++) await submit(base, await quoteAndSign(base, stack.client, i, 0), 0);
      const signed = await signedQuotes(base, stack.client, BURST, 10);
      const r = await recorded(runtime, async () => {
        const burst = await burstOf(signed.length, 16, (k, worker) =>
          submit(base, signed[k] as (typeof signed)[number], worker),
        );
        return burst.accepted + burst.failed;
      });
      print(`a burst of ${BURST} submissions, 16 at a time, to their answers`, [{ name: "relay", r }]);
    });
  } finally {
    await stack.stop();
  }
}

async function main() {
  try {
    execFileSync("perf", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("bench:perf needs Linux perf on the PATH (Debian: apt-get install linux-perf)");
  }
  const parts = (process.env.BENCH_PERF_PARTS ?? "quotes,submissions").split(",");
  if (parts.includes("quotes")) await quotes();
  if (parts.includes("submissions")) await submissions();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
