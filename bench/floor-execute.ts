/**
 * Submissions on the relay beside the floor, in one run (bench/README.md, "The floor"): the
 * execution benchmark's stack (bench/execute-stack.ts) and the floor's keeper (bench/floor/keeper.ts),
 * each reaching anvil through a JSON-RPC timer of its own, both asked at their own workerd
 * (bench/workerd.ts). Submissions one at a time alternate between the two and split the same way as
 * bench/execute.ts does: the relay's part is the time no chain call was in flight. Then a burst on each,
 * in halves (relay, floor, floor, relay).
 */

import { availableParallelism } from "node:os";
import { encodeFunctionData, parseAbi, parseGwei } from "viem";
import { anvilPrivateKey, LOCAL_ACCOUNTS } from "../scripts/lib/local-stack";
import { anvilAccount } from "../src/clients/resolver/keys";
import { clientHeaders } from "./clients";
import {
  BENCH_ADMIN_TOKEN,
  type Burst,
  burst,
  burstOf,
  cngn,
  describeBurst,
  drained,
  FIRST_EXTRA_ACCOUNT,
  isSubmissionCall,
  perSecond,
  quoteAndSign,
  type Stack,
  splitAtRpc,
  startStack,
  submit,
  withRelay,
} from "./execute-stack";
import type { FloorSubmission } from "./floor/protocol";
import { type FloorProcess, localObservability, startFloor } from "./floor-dev";
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
/** The floor's transactions move 1 unit of cNGN here. */
const SINK = "0x000000000000000000000000000000000000f100";
const transferAbi = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

/**
 * The floor's sender: an anvil account of its own (the stack's first extra account, holding cNGN) whose
 * transfers the bench signs ahead, nonce after nonce, so the floor signs nothing.
 */
class FloorSender {
  readonly account = anvilAccount(FIRST_EXTRA_ACCOUNT);
  private nonce = 0;

  async start(stack: Stack): Promise<void> {
    this.nonce = await stack.client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
  }

  async next(): Promise<FloorSubmission> {
    const data = encodeFunctionData({ abi: transferAbi, functionName: "transfer", args: [SINK, 1n] });
    const raw = await this.account.signTransaction({
      type: "eip1559",
      chainId: 31337,
      to: cngn,
      data,
      nonce: this.nonce++,
      gas: 100_000n,
      maxFeePerGas: parseGwei("20"),
      maxPriorityFeePerGas: parseGwei("1"),
    });
    return { call: { from: this.account.address, to: cngn, data }, raw };
  }

  async many(count: number): Promise<FloorSubmission[]> {
    const out: FloorSubmission[] = [];
    for (let i = 0; i < count; i++) out.push(await this.next());
    return out;
  }
}

/** A submission to the floor as client `asClient` (bench/clients.ts), as the relay's are sent. */
async function floorSubmit(floor: FloorProcess, submission: FloorSubmission, asClient: number): Promise<void> {
  const res = await fetch(`${floor.runtime.directUrl}/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(asClient) },
    body: JSON.stringify(submission),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`the floor answered ${res.status} ${text.slice(0, 200)}`);
}

interface Split {
  totals: number[];
  rpc: number[];
  own: number[];
}

const newSplit = (): Split => ({ totals: [], rpc: [], own: [] });

function addSplit(split: Split, part: { total: number; rpc: number; relay: number }): void {
  split.totals.push(part.total);
  split.rpc.push(part.rpc);
  split.own.push(part.relay);
}

const describeSplit = (s: Split) =>
  `total p50 ${fmt(percentile(s.totals, 50))} p99 ${fmt(percentile(s.totals, 99))}` +
  ` | chain RPC p50 ${fmt(percentile(s.rpc, 50))}` +
  ` | own part p50 ${fmt(percentile(s.own, 50))} p99 ${fmt(percentile(s.own, 99))}`;

interface Sides {
  stack: Stack;
  relayUrl: string;
  relayRuntime: WorkerRuntime;
  floor: FloorProcess;
  floorTimer: RpcTimer;
  sender: FloorSender;
}

/** Submissions one at a time, relay then floor, each timed at the taker and split at its own RPC timer. */
async function alternating(s: Sides, n: number) {
  const relay = newSplit();
  const floor = newSplit();
  const phases = new Phases();
  for (let i = 0; i < n + WARM_UP; i++) {
    const signed = await quoteAndSign(s.relayUrl, s.stack.client, i, 0);
    await quiet();
    let from = performance.now();
    await submit(s.relayRuntime.directUrl, signed, 0, i < WARM_UP ? undefined : phases);
    let to = performance.now();
    if (i >= WARM_UP) addSplit(relay, splitAtRpc(s.stack.timer, from, to, isSubmissionCall));
    const submission = await s.sender.next();
    await quiet();
    from = performance.now();
    await floorSubmit(s.floor, submission, 0);
    to = performance.now();
    if (i >= WARM_UP)
      addSplit(
        floor,
        splitAtRpc(s.floorTimer, from, to, () => true),
      );
  }
  console.log(
    `${n} submissions one at a time, alternating\n   relay: ${describeSplit(relay)}\n` +
      `          the relay's phases (Server-Timing, p50 ms): ${phases.describe()}\n   floor: ${describeSplit(floor)}`,
  );
  return { relay, floor };
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

/** A burst on each side in halves, relay, floor, floor, relay, each after the chain has mined the last. */
async function bursts(s: Sides, options: SubmissionRunOptions) {
  const half = Math.ceil(options.burst / 2);
  const relayKeeper = anvilAccount(LOCAL_ACCOUNTS.keeper).address;
  const senders = [relayKeeper, s.sender.account.address];
  const totals = {
    relay: { accepted: 0, seconds: 0, cpuMs: 0, failed: 0, firstError: null } as BurstTotal,
    floor: { accepted: 0, seconds: 0, cpuMs: 0, failed: 0, firstError: null } as BurstTotal,
  };
  for (const name of ["relay", "floor", "floor", "relay"] as const) {
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
      const batch = await s.sender.many(half);
      cpuBefore = cpuMs(runtime.workerPids);
      machineBefore = machineCpuMs();
      result = await burstOf(batch.length, options.concurrency, (k, worker) =>
        floorSubmit(s.floor, batch[k] as FloorSubmission, worker),
      );
    }
    const cpu = cpuMs(runtime.workerPids) - cpuBefore;
    const busy = (ms: number) => (ms / (result.seconds * 1000)).toFixed(2);
    console.log(
      `   burst of ${half} at concurrency ${options.concurrency}, ${name}: ${describeBurst(result)}; in cores busy: ` +
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

/** The relay (one keeper wallet) and the floor started on one chain, measured, and stopped. */
export async function compareSubmissions(
  options: SubmissionRunOptions = submissionRunOptions(),
): Promise<Comparison[]> {
  const stack = await startStack(1);
  const floorTimer = await startRpcTimer(stack.anvil.rpcUrl);
  let floor: FloorProcess | null = null;
  try {
    floor = await startFloor({ rpcUrl: floorTimer.url });
    const started = floor;
    return await withRelay(stack, [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)], async (relayUrl) => {
      const relayRuntime = await findWorkerRuntime(relayUrl);
      const sender = new FloorSender();
      await sender.start(stack);
      const sides: Sides = { stack, relayUrl, relayRuntime, floor: started, floorTimer, sender };
      console.log(
        `relay directly on ${relayRuntime.directUrl} (workerd ${relayRuntime.workerPids.join(", ")}); ` +
          `floor directly on ${started.runtime.directUrl} (workerd ${started.runtime.workerPids.join(", ")}); ` +
          `local observability ${localObservability()}\n`,
      );
      const seq = await alternating(sides, options.submissions);
      const burst = await bursts(sides, options);
      const rate = (b: BurstTotal) => perSecond({ ...b, limited: 0 });
      const rows: Comparison[] = [
        {
          figure: "submission, own part p50 (beyond the chain's)",
          relay: percentile(seq.relay.own, 50),
          floor: percentile(seq.floor.own, 50),
          unit: "ms",
          against: "ratio",
          target: { better: "lower", value: 2 },
        },
        {
          figure: "submission, own part p99",
          relay: percentile(seq.relay.own, 99),
          floor: percentile(seq.floor.own, 99),
          unit: "ms",
          against: "ratio",
        },
        {
          figure: "submission, chain RPC part p50",
          relay: percentile(seq.relay.rpc, 50),
          floor: percentile(seq.floor.rpc, 50),
          unit: "ms",
          against: "ratio",
        },
        {
          figure: "executions/s, burst, 1 keeper wallet",
          relay: rate(burst.relay),
          floor: rate(burst.floor),
          unit: "exec/s",
          against: "ratio",
          target: { better: "higher", value: 0.5 },
        },
        {
          figure: "CPU per execution, burst",
          relay: burst.relay.cpuMs / (burst.relay.accepted + burst.relay.failed),
          floor: burst.floor.cpuMs / (burst.floor.accepted + burst.floor.failed),
          unit: "ms",
          against: "difference",
        },
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
