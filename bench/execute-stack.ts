/**
 * The local stack the execution benchmarks measure the relay on (bench/README.md, "How to measure"): anvil with
 * the contracts and a block a second, the Solana harness, JSON-RPC timers in front of both, funded takers
 * with Permit2 approved, and `wrangler dev` with the keeper key and two reference resolvers. Shared by
 * `npm run bench:execute` (bench/execute.ts) and the floor's side-by-side run (bench/floor-execute.ts).
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
import { clientHeaders } from "./clients";
import { busyTime, type RpcCall, type RpcTimer, startRpcTimer } from "./rpc-timer";
import { fetchTimed, type Phases } from "./stats";

/** POST /v1/executions admits 20 submissions per taker in 10 s: enough takers to stay clear of it. */
const TAKERS = 40;
const FIRST_TAKER = 10;
const SELL_AMOUNT = 1_580_000_000n;
/**
 * The keeper pool: the local keeper (anvil's #9) and three accounts after the takers, which the
 * benchmark allows on the executor itself.
 */
export const POOL_SIZE = 4;
const FIRST_POOL_KEEPER = FIRST_TAKER + TAKERS;
export const pool = [LOCAL_ACCOUNTS.keeper, ...Array.from({ length: POOL_SIZE - 1 }, (_, i) => FIRST_POOL_KEEPER + i)];
/** Anvil accounts after the pool's, for what a benchmark runs beside the relay (the floor's sender). */
export const FIRST_EXTRA_ACCOUNT = FIRST_POOL_KEEPER + POOL_SIZE - 1;

export const { cngn, usdc, permit2, executor } = expectedDeployment();
const takers = Array.from({ length: TAKERS }, (_, i) => anvilAccount(FIRST_TAKER + i));

/** The keeper's calls for a submission; the indexer's receipt and block reads are not. */
export function isSubmissionCall(call: RpcCall): boolean {
  return call.methods.every((m, i) => {
    if (["eth_blockNumber", "eth_getTransactionReceipt", "eth_getTransactionByHash"].includes(m)) return false;
    const tag = call.params[i]?.[0];
    return m !== "eth_getBlockByNumber" || tag === "latest" || tag === "pending";
  });
}

/**
 * A request's time within `[from, to]` split into the chain's part (at least one of the timer's calls
 * that `counts` in flight) and the rest, the relay's part (bench/README.md, "How to measure").
 */
export function splitAtRpc(timer: RpcTimer, from: number, to: number, counts: (call: RpcCall) => boolean) {
  const calls = timer.callsSince(from).filter((c) => c.start < to && counts(c));
  const rpc = busyTime(calls, from, to);
  return { total: to - from, rpc, relay: to - from - rpc, calls: calls.reduce((n, c) => n + c.methods.length, 0) };
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

/** Taker `n`'s quote, asked as client `asClient` (bench/clients.ts), signed. */
export async function quoteAndSign(relayUrl: string, client: PublicClient, n: number, asClient: number) {
  const account = takers[n % takers.length] as (typeof takers)[number];
  const quote = await requestQuote(
    relayUrl,
    { sellToken: cngn, buyToken: usdc, sellAmount: SELL_AMOUNT.toString(), taker: account.address },
    { headers: clientHeaders(asClient) },
  );
  const signed = await signForSubmission(client, account, quote);
  if (signed.permit) throw new Error(`taker ${account.address} has no Permit2 approval`);
  return signed;
}

/** A signed quote submitted as client `asClient` (bench/clients.ts). */
export async function submit(relayUrl: string, signed: SignedQuote, asClient: number, phases?: Phases) {
  const { httpStatus, answer } = await submitExecution(relayUrl, signed.request, {
    idempotencyKey: crypto.randomUUID(),
    notLeaderRetries: 0,
    headers: clientHeaders(asClient),
    ...(phases ? { fetch: fetchTimed(phases) } : {}),
  });
  if (httpStatus !== 202) throw new Error(`submission answered ${httpStatus} ${JSON.stringify(answer)}`);
  return answer;
}

export interface Burst {
  /** Submissions answered 202. */
  accepted: number;
  limited: number;
  failed: number;
  /** The first failure's message, shown in the row instead of stopping the benchmark. */
  firstError: string | null;
  seconds: number;
}

/**
 * `send` for each of `count` items, `concurrency` at a time (each sender `worker` a client of its own,
 * bench/clients.ts), timed from the first send to the last answer; `onStart` runs just before the first send.
 */
export async function burstOf(
  count: number,
  concurrency: number,
  send: (k: number, worker: number) => Promise<unknown>,
  options: { isLimited?: (e: unknown) => boolean; onStart?: () => void } = {},
): Promise<Burst> {
  const result: Burst = { accepted: 0, limited: 0, failed: 0, firstError: null, seconds: 0 };
  let next = 0;
  options.onStart?.();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let k = next++; k < count; k = next++) {
        try {
          await send(k, worker);
          result.accepted++;
        } catch (e) {
          if (options.isLimited?.(e)) result.limited++;
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

/** `size` quotes from taker `first` on, made and signed 24 at a time, each of the 24 a client of its own. */
export async function signedQuotes(relayUrl: string, client: PublicClient, size: number, first = 0) {
  const batch: SignedQuote[] = [];
  for (let i = 0; i < size; i += 24) {
    const n = Math.min(24, size - i);
    batch.push(
      ...(await Promise.all(Array.from({ length: n }, (_, j) => quoteAndSign(relayUrl, client, first + i + j, j)))),
    );
  }
  return batch;
}

/**
 * `size` quotes made and signed first (the RFQ benchmark measures quoting), then submitted at once;
 * `onStart` runs between the two.
 */
export async function burst(
  relayUrl: string,
  client: PublicClient,
  size: number,
  concurrency: number,
  onStart?: () => void,
  phases?: Phases,
) {
  const batch = await signedQuotes(relayUrl, client, size);
  return burstOf(batch.length, concurrency, (k, worker) => submit(relayUrl, batch[k] as SignedQuote, worker, phases), {
    isLimited: (e) => e instanceof RelayHttpError && e.code === "rate_limited",
    ...(onStart ? { onStart } : {}),
  });
}

export const perSecond = (b: Burst) => b.accepted / b.seconds;

export function describeBurst(b: Burst): string {
  const failures = b.failed ? `; ${b.failed} failed, first: ${b.firstError?.slice(0, 200)}` : "";
  return (
    `${b.accepted} submitted in ${b.seconds.toFixed(2)} s = ${perSecond(b).toFixed(1)} executions/s` +
    `${b.limited ? ` (${b.limited} rate-limited)` : ""}${failures}`
  );
}

/** Waits until every transaction the senders sent is mined, so one run's backlog does not slow the next. */
export async function drained(client: PublicClient, senders: readonly Address[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const address of senders) {
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

export interface Stack {
  anvil: AnvilProcess;
  solana: SolanaHarness;
  timer: RpcTimer;
  solanaTimer: RpcTimer;
  client: PublicClient;
  stop(): Promise<void>;
}

/**
 * Anvil (with `extraAccounts` more accounts from `FIRST_EXTRA_ACCOUNT`, holding both tokens as the
 * takers do), the contracts, the Solana harness and the timers in front of both chains.
 */
export async function startStack(extraAccounts = 0): Promise<Stack> {
  const anvil = await startAnvil({ accounts: FIRST_EXTRA_ACCOUNT + extraAccounts });
  const solana = await startSolanaHarness({ port: 0 });
  const timer = await startRpcTimer(anvil.rpcUrl);
  const solanaTimer = await startRpcTimer(solana.url);
  const client = createPublicClient({ chain: anvilChain, transport: http(anvil.rpcUrl) });
  const stop = async () => {
    await timer.stop();
    await solanaTimer.stop();
    await anvil.stop();
    await solana.stop();
  };
  try {
    const extra = Array.from({ length: extraAccounts }, (_, i) => anvilAccount(FIRST_EXTRA_ACCOUNT + i).address);
    await prepareLocalChain(anvil.rpcUrl, {
      takers: [...takers.map((t) => t.address), ...extra],
      resolvers: LOCAL_ACCOUNTS.resolvers.slice(0, 2).map((i) => anvilAccount(i)),
    });
    await approveTakers(anvil.rpcUrl);
    await allowKeepers(
      anvil.rpcUrl,
      pool.slice(1).map((i) => anvilAccount(i).address),
    );
    await startIntervalMining(anvil.rpcUrl, 1);
  } catch (e) {
    await stop();
    throw e;
  }
  return { anvil, solana, timer, solanaTimer, client, stop };
}

/** The admin API's token of the benchmark's relay (the keeper's status, `GET /v1/admin/keeper`). */
export const BENCH_ADMIN_TOKEN = "bench-admin-token";

/**
 * `wrangler dev` with `KEEPER_PRIVATE_KEY` set to `keys` (comma-separated for a pool) and the reference
 * resolvers on it; `run` gets its URL and the resolvers, and both are stopped after.
 */
export async function withRelay<T>(
  stack: Stack,
  keys: readonly Hex[],
  run: (relayUrl: string, resolvers: readonly ResolverClient[]) => Promise<T>,
  options: { inspectorPort?: number } = {},
): Promise<T> {
  // The relay reaches the chain through the timer; the resolvers and the taker side go to anvil directly.
  const config = offlineRelayConfig(stack.timer.url);
  // One process stands for many takers and clients: submissions are counted against limits it never reaches.
  config.limits = {
    ...config.limits,
    takerSubmissionsPer10s: 100_000,
    quotesPerSecond: 100_000,
    quoteBurst: 100_000,
    newSocketsPerMinute: 100_000,
    socketsPerClient: 100_000,
  };
  const solanaChain = config.chains.find((c) => c.kind === "solana");
  if (solanaChain) solanaChain.rpcUrl = stack.solanaTimer.url;
  const relay = await startRelay({
    ...options,
    vars: {
      RELAY_CONFIG: JSON.stringify(config),
      KEEPER_PRIVATE_KEY: keys.join(","),
      KEEPER_SOLANA_KEY: base58.encode(stack.solana.accounts.keeper.secretKey),
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
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
    return await run(relay.url, fleet);
  } finally {
    await Promise.allSettled(fleet.map((c) => c.stop()));
    await relay.stop();
  }
}
