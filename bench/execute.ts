/**
 * Execution benchmark: submission latency of `POST /v1/executions`, split into the relay's own part and
 * the chain RPC's part, and sustained executions/s, against a local stack the benchmark starts itself
 * (anvil, contracts, the Solana harness, `wrangler dev`, two reference resolvers on both chains); then
 * the same latency split for Solana swaps (bench/execute-solana.ts); then the burst again on a relay
 * whose `KEEPER_PRIVATE_KEY` is a pool of four keys. `npm run bench:execute` (bench/README.md).
 *
 * The RPC part is measured at the RPC boundary: the relay's chain URL is a pass-through to anvil
 * (bench/rpc-timer.ts) that records when each of the keeper's calls was in flight. A submission's RPC
 * part is the time, within its request, that at least one submission call (simulation, gas estimate,
 * nonce and fee reads, eth_sendRawTransaction) was in flight; the relay's part is the rest.
 */

import { base58 } from "@scure/base";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil as anvilChain } from "viem/chains";
import { ANVIL_DEPLOYER_KEY, expectedDeployment } from "../scripts/lib/evm-deploy";
import {
  type AnvilProcess,
  anvilPrivateKey,
  LOCAL_ACCOUNTS,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
  startRelay,
} from "../scripts/lib/local-stack";
import { type SolanaHarness, startSolanaHarness } from "../scripts/lib/solana-harness/server";
import type { ResolverClient } from "../src/clients/resolver/client";
import { anvilAccount } from "../src/clients/resolver/keys";
import { RelayHttpError, requestQuote, submitExecution } from "../src/clients/taker/relay";
import { type SignedQuote, signForSubmission } from "../src/clients/taker/swap";
import { solanaExecutionRun } from "./execute-solana";
import { busyTime, type RpcCall, type RpcTimer, startRpcTimer } from "./rpc-timer";
import { fetchTimed, fmt, machineLoad, notMeasured, Phases, percentile, reported, verdict } from "./stats";

const SEQUENTIAL = Number(process.env.BENCH_EXECUTIONS ?? 100);
const BURST = Number(process.env.BENCH_BURST ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SOLANA_EXECUTIONS = Number(process.env.BENCH_SOLANA_EXECUTIONS ?? 30);
/** POST /v1/executions admits 20 submissions per taker in 10 s: enough takers to stay clear of it. */
const TAKERS = 40;
const FIRST_TAKER = 10;
const SELL_AMOUNT = 1_580_000_000n;
/**
 * The keeper pool: the local keeper (anvil's #9) and three accounts after the takers, which the
 * benchmark allows on the executor itself.
 */
const POOL_SIZE = 4;
const FIRST_POOL_KEEPER = FIRST_TAKER + TAKERS;
const pool = [LOCAL_ACCOUNTS.keeper, ...Array.from({ length: POOL_SIZE - 1 }, (_, i) => FIRST_POOL_KEEPER + i)];

const { cngn, usdc, permit2, executor } = expectedDeployment();
const takers = Array.from({ length: TAKERS }, (_, i) => anvilAccount(FIRST_TAKER + i));

/** The keeper's calls for a submission; the indexer's receipt and block reads are not. */
function isSubmissionCall(call: RpcCall): boolean {
  return call.methods.every((m, i) => {
    if (["eth_blockNumber", "eth_getTransactionReceipt", "eth_getTransactionByHash"].includes(m)) return false;
    const tag = call.params[i]?.[0];
    return m !== "eth_getBlockByNumber" || tag === "latest" || tag === "pending";
  });
}

/** Every taker holds both tokens (prepareLocalChain) and has approved Permit2 for cNGN once. */
async function approveTakers(rpcUrl: string): Promise<void> {
  const client = createPublicClient({ chain: anvilChain, transport: http(rpcUrl), pollingInterval: 100 });
  const abi = parseAbi(["function approve(address, uint256) returns (bool)"]);
  const hashes = await Promise.all(
    takers.map((account) =>
      createWalletClient({ account, chain: anvilChain, transport: http(rpcUrl) }).writeContract({
        address: cngn,
        abi,
        functionName: "approve",
        args: [permit2, maxUint256],
      }),
    ),
  );
  for (const hash of hashes) await client.waitForTransactionReceipt({ hash });
}

async function quoteAndSign(relayUrl: string, client: PublicClient, n: number) {
  const account = takers[n % takers.length] as (typeof takers)[number];
  const quote = await requestQuote(relayUrl, {
    sellToken: cngn,
    buyToken: usdc,
    sellAmount: SELL_AMOUNT.toString(),
    taker: account.address,
  });
  const signed = await signForSubmission(client, account, quote);
  if (signed.permit) throw new Error(`taker ${account.address} has no Permit2 approval`);
  return signed;
}

async function submit(relayUrl: string, signed: SignedQuote, phases?: Phases) {
  const { httpStatus, answer } = await submitExecution(relayUrl, signed.request, {
    idempotencyKey: crypto.randomUUID(),
    notLeaderRetries: 0,
    ...(phases ? { fetch: fetchTimed(phases) } : {}),
  });
  if (httpStatus !== 202) throw new Error(`submission answered ${httpStatus} ${JSON.stringify(answer)}`);
  return answer;
}

interface Burst {
  /** Submissions answered 202. */
  accepted: number;
  limited: number;
  failed: number;
  /** The first failure's message, shown in the row instead of stopping the benchmark. */
  firstError: string | null;
  seconds: number;
}

/** `BURST` quotes made and signed first (the RFQ benchmark measures quoting), then submitted at once. */
async function burst(relayUrl: string, client: PublicClient): Promise<Burst> {
  const batch: SignedQuote[] = [];
  for (let i = 0; i < BURST; i += 24) {
    const n = Math.min(24, BURST - i);
    batch.push(...(await Promise.all(Array.from({ length: n }, (_, j) => quoteAndSign(relayUrl, client, i + j)))));
  }
  const result: Burst = { accepted: 0, limited: 0, failed: 0, firstError: null, seconds: 0 };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let k = next++; k < batch.length; k = next++) {
        try {
          await submit(relayUrl, batch[k] as SignedQuote);
          result.accepted++;
        } catch (e) {
          if (e instanceof RelayHttpError && e.code === "rate_limited") result.limited++;
          else {
            result.failed++;
            result.firstError ??= (e as Error).message;
          }
        }
      }
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

function describeBurst(b: Burst): string {
  const perSecond = b.accepted / b.seconds;
  const failures = b.failed ? `; ${b.failed} failed, first: ${b.firstError?.slice(0, 200)}` : "";
  return (
    `${b.accepted} submitted in ${b.seconds.toFixed(2)} s = ${perSecond.toFixed(1)} executions/s` +
    `${b.limited ? ` (${b.limited} rate-limited)` : ""}${failures}`
  );
}

/** Waits until every transaction the keepers sent is mined, so one run's backlog does not slow the next. */
async function drained(client: PublicClient, keepers: readonly Address[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const address of keepers) {
    while (Date.now() < deadline) {
      const [mined, pending] = await Promise.all([
        client.getTransactionCount({ address, blockTag: "latest" }),
        client.getTransactionCount({ address, blockTag: "pending" }),
      ]);
      if (mined === pending) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The executor lets the pool's other wallets call it (its owner is the deployer, anvil's account 0). */
async function allowKeepers(rpcUrl: string, keepers: readonly Address[]): Promise<void> {
  const client = createPublicClient({ chain: anvilChain, transport: http(rpcUrl), pollingInterval: 100 });
  const owner = createWalletClient({
    account: privateKeyToAccount(ANVIL_DEPLOYER_KEY),
    chain: anvilChain,
    transport: http(rpcUrl),
  });
  const abi = parseAbi(["function setKeeper(address keeper, bool allowed)"]);
  for (const keeper of keepers) {
    const hash = await owner.writeContract({ address: executor, abi, functionName: "setKeeper", args: [keeper, true] });
    await client.waitForTransactionReceipt({ hash });
  }
}

interface Stack {
  anvil: AnvilProcess;
  solana: SolanaHarness;
  timer: RpcTimer;
  solanaTimer: RpcTimer;
  client: PublicClient;
}

/**
 * `wrangler dev` with `KEEPER_PRIVATE_KEY` set to `keys` (comma-separated for a pool) and the reference
 * resolvers on it; `run` gets its URL, and both are stopped after.
 */
async function withRelay<T>(stack: Stack, keys: readonly Hex[], run: (relayUrl: string) => Promise<T>): Promise<T> {
  // The relay reaches the chain through the timer; the resolvers and the taker side go to anvil directly.
  const config = offlineRelayConfig(stack.timer.url);
  const solanaChain = config.chains.find((c) => c.kind === "solana");
  if (solanaChain) solanaChain.rpcUrl = stack.solanaTimer.url;
  const relay = await startRelay({
    vars: {
      RELAY_CONFIG: JSON.stringify(config),
      KEEPER_PRIVATE_KEY: keys.join(","),
      KEEPER_SOLANA_KEY: base58.encode(stack.solana.accounts.keeper.secretKey),
    },
  });
  let fleet: ResolverClient[] = [];
  try {
    const probe = await fetch(`${relay.url}/v1/executions`, { method: "POST", body: "{}" });
    if (probe.status === 404 || probe.status === 405) {
      throw new Error("this relay has no POST /v1/executions (the keeper): nothing to measure");
    }
    fleet = await startLocalResolvers(relay.url, {
      rpcUrl: stack.anvil.rpcUrl,
      solana: { rpcUrl: stack.solana.url },
      resolvers: [
        { index: 1, name: "alpha", spreadBps: 0 },
        { index: 2, name: "beta", spreadBps: 15 },
      ],
    });
    return await run(relay.url);
  } finally {
    await Promise.allSettled(fleet.map((c) => c.stop()));
    await relay.stop();
  }
}

/** Sequential submissions, one at a time, so every submission call in its window is its own. */
async function sequential(relayUrl: string, stack: Stack) {
  const totals: number[] = [];
  const rpcParts: number[] = [];
  const relayParts: number[] = [];
  const rpcCalls: number[] = [];
  const phases = new Phases();
  for (let i = 0; i < SEQUENTIAL + 10; i++) {
    const signed = await quoteAndSign(relayUrl, stack.client, i);
    const from = performance.now();
    await submit(relayUrl, signed, i < 10 ? undefined : phases);
    const to = performance.now();
    if (i < 10) continue; // warm-up: the keeper object starting, first connections
    const calls = stack.timer.callsSince(from).filter((c) => c.start < to && isSubmissionCall(c));
    const rpc = busyTime(calls, from, to);
    totals.push(to - from);
    rpcParts.push(rpc);
    relayParts.push(to - from - rpc);
    rpcCalls.push(calls.reduce((n, c) => n + c.methods.length, 0));
  }
  console.log(
    `sequential, ${SEQUENTIAL} submissions: total p50 ${fmt(percentile(totals, 50))} p99 ${fmt(percentile(totals, 99))}` +
      ` | chain RPC p50 ${fmt(percentile(rpcParts, 50))} p99 ${fmt(percentile(rpcParts, 99))}` +
      ` (${percentile(rpcCalls, 50)} calls)` +
      ` | relay p50 ${fmt(percentile(relayParts, 50))} p99 ${fmt(percentile(relayParts, 99))}`,
  );
  console.log(`  the relay's phases (Server-Timing, p50 ms): ${phases.describe()}`);
  return relayParts;
}

async function main() {
  const anvil = await startAnvil({ accounts: FIRST_POOL_KEEPER + POOL_SIZE - 1 });
  const solana = await startSolanaHarness({ port: 0 });
  const timer = await startRpcTimer(anvil.rpcUrl);
  const solanaTimer = await startRpcTimer(solana.url);
  const client = createPublicClient({ chain: anvilChain, transport: http(anvil.rpcUrl) });
  const stack: Stack = { anvil, solana, timer, solanaTimer, client };
  const summary: string[] = [];
  try {
    await prepareLocalChain(anvil.rpcUrl, {
      takers: takers.map((t) => t.address),
      resolvers: LOCAL_ACCOUNTS.resolvers.slice(0, 2).map((i) => anvilAccount(i)),
    });
    await approveTakers(anvil.rpcUrl);
    await allowKeepers(
      anvil.rpcUrl,
      pool.slice(1).map((i) => anvilAccount(i).address),
    );
    await startIntervalMining(anvil.rpcUrl, 1);

    const single = await withRelay(stack, [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)], async (relayUrl) => {
      const relayParts = await sequential(relayUrl, stack);
      const result = await burst(relayUrl, client);
      console.log(`burst of ${BURST} at concurrency ${CONCURRENCY}, 1 keeper wallet: ${describeBurst(result)}`);
      const solanaChain = offlineRelayConfig(timer.url).chains.find((c) => c.kind === "solana");
      const mint = (symbol: string) => solanaChain?.tokens.find((t) => t.symbol === symbol)?.address ?? "";
      const solanaRelayParts = solanaChain
        ? await solanaExecutionRun({
            relayUrl,
            timer: solanaTimer,
            chainId: solanaChain.chainId,
            sellToken: mint("cNGN"),
            buyToken: mint("USDC"),
            submissions: SOLANA_EXECUTIONS,
          })
        : [];
      return { relayParts, solanaRelayParts, result };
    });
    summary.push(verdict("relay part of a submission, p50", percentile(single.relayParts, 50), 10, "lower", "ms"));
    if (single.solanaRelayParts.length > 0) {
      const p50 = percentile(single.solanaRelayParts, 50);
      summary.push(verdict("relay part of a Solana submission, p50", p50, 10, "lower", "ms"));
    }
    summary.push(reported("executions/s, burst, 1 keeper wallet", perSecond(single.result), "exec/s"));

    await drained(
      client,
      pool.map((i) => anvilAccount(i).address),
    );
    const poolName = `executions/s, burst, keeper pool of ${POOL_SIZE}`;
    try {
      const keys = pool.map((i) => anvilPrivateKey(i));
      const result = await withRelay(stack, keys, (relayUrl) => burst(relayUrl, client));
      console.log(
        `burst of ${BURST} at concurrency ${CONCURRENCY}, ${POOL_SIZE} keeper wallets: ${describeBurst(result)}`,
      );
      if (result.accepted === 0) summary.push(notMeasured(poolName, `every submission failed: ${result.firstError}`));
      else {
        summary.push(verdict(poolName, perSecond(result), 100, "higher", "exec/s"));
        if (result.failed > 0)
          summary.push(`  (${result.failed} of ${BURST} failed: ${result.firstError?.slice(0, 200)})`);
      }
    } catch (e) {
      summary.push(notMeasured(poolName, (e as Error).message.split("\n")[0] ?? String(e)));
    }
    console.log(`\n${summary.join("\n")}\n${machineLoad()}`);
  } finally {
    await timer.stop();
    await solanaTimer.stop();
    await anvil.stop();
    await solana.stop();
  }
}

const perSecond = (b: Burst) => b.accepted / b.seconds;

await main();
