/**
 * Submissions on the relay beside both floors, in one run (bench/README.md, "The floor"): the
 * execution benchmark's stack (bench/execute-stack.ts), the required-work floor's keeper
 * (bench/floor/required-keeper.ts, real fills of the relay's own quotes) and the bare floor's
 * (bench/floor/keeper.ts), the relay and the floors each reaching anvil through a JSON-RPC timer of its
 * own, all asked at their own workerd (bench/workerd.ts). Submissions one at a time in turns (relay,
 * required-work floor, bare floor), split as bench/execute.ts does: a side's own part is the time none of
 * its chain calls was in flight. Then a burst on each, in halves and mirrored turns.
 */

import { availableParallelism } from "node:os";
import { anvilPrivateKey, LOCAL_ACCOUNTS } from "../scripts/lib/local-stack";
import { anvilAccount } from "../src/clients/resolver/keys";
import {
  BENCH_ADMIN_TOKEN,
  type Burst,
  burst,
  burstOf,
  describeBurst,
  drained,
  isSubmissionCall,
  perSecond,
  pool,
  quoteAndSign,
  type Stack,
  signedQuotes,
  splitAtRpc,
  startStack,
  submit,
  withRelay,
} from "./execute-stack";
import type { FloorSubmission } from "./floor/protocol";
import { bareSubmit, FloorSender } from "./floor-bare-submit";
import { type FloorProcess, localObservability, startFloor } from "./floor-dev";
import { requiredKeeperVars, requiredSubmit, SentBids } from "./floor-required-submit";
import { SIDE_LABEL, type SideName } from "./floor-sides";
import type { Comparison } from "./floor-table";
import { type RpcCall, type RpcTimer, startRpcTimer } from "./rpc-timer";
import { fmt, Phases, percentile, quiet } from "./stats";
import { cpuMs, findWorkerRuntime, machineCpuMs, type WorkerRuntime } from "./workerd";

export interface SubmissionRunOptions {
  /** Submissions one at a time, each side. */
  submissions: number;
  /** Submissions in the burst, each side (in two halves). */
  burst: number;
  concurrency: number;
}

export const submissionRunOptions = (): SubmissionRunOptions => ({
  submissions: Number(process.env.BENCH_EXECUTIONS ?? 100),
  burst: Number(process.env.BENCH_BURST ?? 300),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16),
});

const WARM_UP = 10;
/** The required-work floor's quotes are asked for takers this far from the relay's own, one at a time. */
const REQUIRED_TAKERS_FROM = 20;

interface Split {
  totals: number[];
  rpc: number[];
  own: number[];
  failed: number;
  firstError: string | null;
}

const newSplit = (): Split => ({ totals: [], rpc: [], own: [], failed: 0, firstError: null });

function addSplit(split: Split, part: { total: number; rpc: number; relay: number }): void {
  split.totals.push(part.total);
  split.rpc.push(part.rpc);
  split.own.push(part.relay);
}

const describeSplit = (s: Split) =>
  `total p50 ${fmt(percentile(s.totals, 50))} p99 ${fmt(percentile(s.totals, 99))}` +
  ` | chain RPC p50 ${fmt(percentile(s.rpc, 50))}` +
  ` | own part p50 ${fmt(percentile(s.own, 50))} p99 ${fmt(percentile(s.own, 99))}` +
  (s.failed ? ` | ${s.failed} failed, first: ${s.firstError?.slice(0, 200)}` : "");

interface Sides {
  stack: Stack;
  relayUrl: string;
  relayRuntime: WorkerRuntime;
  floor: FloorProcess;
  floorTimer: RpcTimer;
  sender: FloorSender;
  bids: SentBids;
}

/** One submission timed at the taker and split at `timer`; a floor's failure is counted, not fatal. */
async function timed(split: Split, timer: RpcTimer, counts: (c: RpcCall) => boolean, send: () => Promise<unknown>) {
  const from = performance.now();
  try {
    await send();
  } catch (e) {
    split.failed++;
    split.firstError ??= (e as Error).message;
    return;
  }
  addSplit(split, splitAtRpc(timer, from, performance.now(), counts));
}

/** Submissions one at a time in turns (relay, required-work floor, bare floor), each timed at the taker. */
async function alternating(s: Sides, n: number) {
  const splits: Record<SideName, Split> = { relay: newSplit(), required: newSplit(), bare: newSplit() };
  const warm = newSplit();
  const phases = new Phases();
  const floorUrl = s.floor.runtime.directUrl;
  const all = () => true;
  for (let i = 0; i < n + WARM_UP; i++) {
    const measured = i >= WARM_UP;
    const signed = await quoteAndSign(s.relayUrl, s.stack.client, i, 0);
    await quiet();
    const relayPhases = measured ? phases : undefined;
    const relaySend = () => submit(s.relayRuntime.directUrl, signed, 0, relayPhases);
    if (measured) await timed(splits.relay, s.stack.timer, isSubmissionCall, relaySend);
    else await relaySend();
    const signedForFloor = await quoteAndSign(s.relayUrl, s.stack.client, i + REQUIRED_TAKERS_FROM, 0);
    await quiet();
    // A fill the bench cannot build (its winning bid unseen) counts as the floor's failure, as a refusal would.
    await timed(measured ? splits.required : warm, s.floorTimer, all, () =>
      requiredSubmit(floorUrl, s.bids.fillRequest(signedForFloor), 0),
    );
    const submission = await s.sender.next();
    await quiet();
    await timed(measured ? splits.bare : warm, s.floorTimer, all, () => bareSubmit(floorUrl, submission, 0));
  }
  if (warm.failed) console.log(`   warm-up: ${warm.failed} floor submissions failed, first: ${warm.firstError}`);
  console.log(
    `${n} submissions one at a time, in turns\n   relay: ${describeSplit(splits.relay)}\n` +
      `          the relay's phases (Server-Timing, p50 ms): ${phases.describe()}\n` +
      `   ${SIDE_LABEL.required}: ${describeSplit(splits.required)}\n   ${SIDE_LABEL.bare}: ${describeSplit(splits.bare)}`,
  );
  return splits;
}

/** The relay's JSON-RPC round trips during a burst, per submission and by method. */
function describeRpc(calls: readonly RpcCall[], submissions: number): string {
  const byMethod = new Map<string, number>();
  for (const c of calls) for (const m of c.methods) byMethod.set(m, (byMethod.get(m) ?? 0) + 1);
  const methods = [...byMethod]
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} ${(n / submissions).toFixed(2)}`)
    .join(", ");
  return `relay's JSON-RPC during the burst: ${(calls.length / submissions).toFixed(2)} round trips a submission; calls a submission: ${methods}`;
}

/**
 * What the keeper's indexer spends after a burst until every transaction of it is final: one block is
 * mined on top of the burst's (finality is two blocks locally), then the keeper is asked until it follows
 * nothing (asked every 100 ms; those requests' own CPU is in the figure). The relay's
 * JSON-RPC round trips and its process's CPU meanwhile, per submission.
 */
async function followedToFinal(s: Sides, submissions: number): Promise<string> {
  const from = performance.now();
  const cpuBefore = cpuMs(s.relayRuntime.workerPids);
  await s.stack.client.request({ method: "evm_mine" } as never);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${s.relayRuntime.directUrl}/v1/admin/keeper`, {
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    });
    const { followed } = (await res.json()) as { followed: number };
    if (followed === 0) break;
    if (Date.now() > deadline) return `the indexer still followed ${followed} transactions 60 s after the burst`;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - from) / 1000;
  const cpu = cpuMs(s.relayRuntime.workerPids) - cpuBefore;
  const calls = s.stack.timer.callsSince(from);
  const requests = calls.reduce((n, c) => n + c.methods.length, 0);
  const each = (n: number) => (n / submissions).toFixed(2);
  return (
    `the indexer after the burst, to final: ${fmt(seconds * 1000)}; a submission ${each(calls.length)} ` +
    `JSON-RPC round trips (${each(requests)} calls), ${(cpu / submissions).toFixed(2)} ms of the Worker's process's CPU`
  );
}

interface BurstTotal {
  accepted: number;
  seconds: number;
  cpuMs: number;
  failed: number;
  firstError: string | null;
}

/** A burst of `half` on one floor: its sender for `burstOf`, with what it sends made first. */
async function floorBatch(s: Sides, name: "required" | "bare", half: number) {
  const floorUrl = s.floor.runtime.directUrl;
  if (name === "bare") {
    const batch = await s.sender.many(half);
    return (k: number, worker: number) => bareSubmit(floorUrl, batch[k] as FloorSubmission, worker);
  }
  // Made 24 at a time on the relay, as the relay's own burst's are; then let the relay's work behind them end.
  const quotes = await signedQuotes(s.relayUrl, s.stack.client, half);
  const fills = quotes.map((q) => () => s.bids.fillRequest(q));
  await quiet();
  return async (k: number, worker: number) => requiredSubmit(floorUrl, (fills[k] as (typeof fills)[number])(), worker);
}

/** A burst on each side in halves, mirrored (relay, required, bare, bare, required, relay), each after the chain mined the last. */
async function bursts(s: Sides, options: SubmissionRunOptions) {
  const half = Math.ceil(options.burst / 2);
  const relayKeeper = anvilAccount(LOCAL_ACCOUNTS.keeper).address;
  const requiredKeeper = anvilAccount(pool[1] as number).address;
  const senders = [relayKeeper, requiredKeeper, s.sender.account.address];
  const zero = (): BurstTotal => ({ accepted: 0, seconds: 0, cpuMs: 0, failed: 0, firstError: null });
  const totals: Record<SideName, BurstTotal> = { relay: zero(), required: zero(), bare: zero() };
  const order: SideName[] = ["relay", "required", "bare", "bare", "required", "relay"];
  for (const name of order) {
    await drained(s.stack.client, senders);
    const runtime = name === "relay" ? s.relayRuntime : s.floor.runtime;
    let result: Burst;
    let cpuBefore: number;
    let machineBefore: number;
    if (name === "relay") {
      // Quotes first (bench/execute-stack.ts, `burst`): the CPU window starts with the submissions.
      const started = { cpu: 0, machine: 0, at: 0 };
      const phases = new Phases();
      result = await burst(
        runtime.directUrl,
        s.stack.client,
        half,
        options.concurrency,
        () => {
          started.cpu = cpuMs(runtime.workerPids);
          started.machine = machineCpuMs();
          started.at = performance.now();
        },
        phases,
      );
      console.log(`   the keeper's phases during the burst (Server-Timing, p50 ms): ${phases.describe()}`);
      cpuBefore = started.cpu;
      machineBefore = started.machine;
      console.log(`   ${describeRpc(s.stack.timer.callsSince(started.at), result.accepted)}`);
    } else {
      const send = await floorBatch(s, name, half);
      cpuBefore = cpuMs(runtime.workerPids);
      machineBefore = machineCpuMs();
      result = await burstOf(half, options.concurrency, send);
    }
    const cpu = cpuMs(runtime.workerPids) - cpuBefore;
    const busy = (ms: number) => (ms / (result.seconds * 1000)).toFixed(2);
    console.log(
      `   burst of ${half} at concurrency ${options.concurrency}, ${SIDE_LABEL[name]}: ${describeBurst(result)}; in cores busy: ` +
        `the Worker's process ${busy(cpu)}, the whole machine ${busy(machineCpuMs() - machineBefore)} of ${availableParallelism()}`,
    );
    // After the burst's own figures: what following it to final costs the keeper on top.
    if (name === "relay") console.log(`   ${await followedToFinal(s, result.accepted)}`);
    const total = totals[name];
    total.accepted += result.accepted;
    total.seconds += result.seconds;
    total.cpuMs += cpu;
    total.failed += result.failed;
    total.firstError ??= result.firstError;
  }
  return totals;
}

/** The relay (one keeper wallet) and both floors started on one chain, measured, and stopped. */
export async function compareSubmissions(
  options: SubmissionRunOptions = submissionRunOptions(),
): Promise<Comparison[]> {
  const stack = await startStack(1);
  const floorTimer = await startRpcTimer(stack.anvil.rpcUrl);
  let floor: FloorProcess | null = null;
  try {
    floor = await startFloor({ rpcUrl: floorTimer.url, required: requiredKeeperVars() });
    const started = floor;
    return await withRelay(stack, [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)], async (relayUrl, resolvers) => {
      const relayRuntime = await findWorkerRuntime(relayUrl);
      const sender = new FloorSender();
      await sender.start(stack);
      const bids = new SentBids(resolvers);
      const sides: Sides = { stack, relayUrl, relayRuntime, floor: started, floorTimer, sender, bids };
      console.log(
        `relay directly on ${relayRuntime.directUrl} (workerd ${relayRuntime.workerPids.join(", ")}); ` +
          `floors directly on ${started.runtime.directUrl} (workerd ${started.runtime.workerPids.join(", ")}); ` +
          `local observability ${localObservability()}\n`,
      );
      const seq = await alternating(sides, options.submissions);
      const burst = await bursts(sides, options);
      const rate = (b: BurstTotal) => perSecond({ ...b, limited: 0 });
      const cpuEach = (b: BurstTotal) => b.cpuMs / (b.accepted + b.failed);
      const row = (
        figure: string,
        value: (name: SideName) => number,
        rest: Pick<Comparison, "unit" | "against" | "target">,
      ): Comparison => ({ figure, relay: value("relay"), floor: value("required"), bare: value("bare"), ...rest });
      const rows: Comparison[] = [
        row("submission, own part p50 (beyond the chain's)", (n) => percentile(seq[n].own, 50), {
          unit: "ms",
          against: "ratio",
          target: { better: "lower", value: 1.5 },
        }),
        row("submission, own part p99", (n) => percentile(seq[n].own, 99), { unit: "ms", against: "ratio" }),
        row("submission, chain RPC part p50", (n) => percentile(seq[n].rpc, 50), { unit: "ms", against: "ratio" }),
        row("executions/s, burst, 1 keeper wallet", (n) => rate(burst[n]), {
          unit: "exec/s",
          against: "ratio",
          target: { better: "higher", value: 0.6 },
        }),
        row("CPU per execution, burst", (n) => cpuEach(burst[n]), { unit: "ms", against: "difference" }),
      ];
      for (const [name, b] of Object.entries(burst)) {
        if (b.failed) console.log(`   ${name}: ${b.failed} submissions of the burst failed, first: ${b.firstError}`);
      }
      return rows;
    });
  } finally {
    await floor?.stop();
    await floorTimer.stop();
    await stack.stop();
  }
}
