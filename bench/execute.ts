/**
 * Execution benchmark: submission latency of `POST /v1/executions`, split into the relay's own part and
 * the chain RPC's part, and sustained executions/s, against a local stack the benchmark starts itself
 * (anvil, contracts, the Solana harness, `wrangler dev`, two reference resolvers on both chains); then
 * the same latency split for Solana swaps (bench/execute-solana.ts). `npm run bench:execute` (bench/README.md).
 *
 * The RPC part is measured at the RPC boundary: the relay's chain URL is a pass-through to anvil
 * (bench/rpc-timer.ts) that records when each of the keeper's calls was in flight. A submission's RPC
 * part is the time, within its request, that at least one submission call (simulation, gas estimate,
 * nonce and fee reads, eth_sendRawTransaction) was in flight; the relay's part is the rest.
 */

import { base58 } from "@scure/base";
import { createPublicClient, createWalletClient, http, maxUint256, type PublicClient, parseAbi } from "viem";
import { anvil as anvilChain } from "viem/chains";
import { expectedDeployment } from "../scripts/lib/evm-deploy";
import {
  anvilPrivateKey,
  LOCAL_ACCOUNTS,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
  startRelay,
} from "../scripts/lib/local-stack";
import { startSolanaHarness } from "../scripts/lib/solana-harness/server";
import type { ResolverClient } from "../src/clients/resolver/client";
import { anvilAccount } from "../src/clients/resolver/keys";
import { RelayHttpError, requestQuote, submitExecution } from "../src/clients/taker/relay";
import { type SignedQuote, signForSubmission } from "../src/clients/taker/swap";
import { solanaExecutionRun } from "./execute-solana";
import { busyTime, type RpcCall, startRpcTimer } from "./rpc-timer";
import { fmt, percentile, verdict } from "./stats";

const SEQUENTIAL = Number(process.env.BENCH_EXECUTIONS ?? 100);
const BURST = Number(process.env.BENCH_BURST ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SOLANA_EXECUTIONS = Number(process.env.BENCH_SOLANA_EXECUTIONS ?? 30);
/** POST /v1/executions admits 20 submissions per taker in 10 s: enough takers to stay clear of it. */
const TAKERS = 40;
const FIRST_TAKER = 10;
const SELL_AMOUNT = 1_580_000_000n;

const { cngn, usdc, permit2 } = expectedDeployment();
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

async function submit(relayUrl: string, signed: SignedQuote) {
  const { httpStatus, answer } = await submitExecution(relayUrl, signed.request, {
    idempotencyKey: crypto.randomUUID(),
    notLeaderRetries: 0,
  });
  if (httpStatus !== 202) throw new Error(`submission answered ${httpStatus} ${JSON.stringify(answer)}`);
  return answer;
}

async function main() {
  const anvil = await startAnvil({ accounts: FIRST_TAKER + TAKERS });
  const solana = await startSolanaHarness({ port: 0 });
  let relay: Awaited<ReturnType<typeof startRelay>> | null = null;
  let fleet: ResolverClient[] = [];
  const timer = await startRpcTimer(anvil.rpcUrl);
  const solanaTimer = await startRpcTimer(solana.url);
  try {
    await prepareLocalChain(anvil.rpcUrl, {
      takers: takers.map((t) => t.address),
      resolvers: LOCAL_ACCOUNTS.resolvers.slice(0, 2).map((i) => anvilAccount(i)),
    });
    await approveTakers(anvil.rpcUrl);
    await startIntervalMining(anvil.rpcUrl, 1);
    // The relay reaches the chain through the timer; the resolvers and the taker side go to anvil directly.
    const config = offlineRelayConfig(timer.url);
    const solanaChain = config.chains.find((c) => c.kind === "solana");
    if (solanaChain) solanaChain.rpcUrl = solanaTimer.url;
    relay = await startRelay({
      vars: {
        RELAY_CONFIG: JSON.stringify(config),
        KEEPER_PRIVATE_KEY: anvilPrivateKey(LOCAL_ACCOUNTS.keeper),
        KEEPER_SOLANA_KEY: base58.encode(solana.accounts.keeper.secretKey),
      },
    });
    const relayUrl = relay.url;
    const probe = await fetch(`${relayUrl}/v1/executions`, { method: "POST", body: "{}" });
    if (probe.status === 404 || probe.status === 405) {
      throw new Error("this relay has no POST /v1/executions (the keeper): nothing to measure");
    }
    fleet = await startLocalResolvers(relayUrl, {
      rpcUrl: anvil.rpcUrl,
      solana: { rpcUrl: solana.url },
      resolvers: [
        { index: 1, name: "alpha", spreadBps: 0 },
        { index: 2, name: "beta", spreadBps: 15 },
      ],
    });
    const client = createPublicClient({ chain: anvilChain, transport: http(anvil.rpcUrl) });

    // Sequential: one submission at a time, so every submission call in its window is its own.
    const totals: number[] = [];
    const rpcParts: number[] = [];
    const relayParts: number[] = [];
    const rpcCalls: number[] = [];
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const signed = await quoteAndSign(relayUrl, client, i);
      const from = performance.now();
      await submit(relayUrl, signed);
      const to = performance.now();
      if (i < 10) continue; // warm-up: the keeper object starting, first connections
      const calls = timer.callsSince(from).filter((c) => c.start < to && isSubmissionCall(c));
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

    // Throughput: quotes made first (the RFQ benchmark measures those), then submitted all at once.
    const batch: SignedQuote[] = [];
    for (let i = 0; i < BURST; i += 24) {
      const n = Math.min(24, BURST - i);
      batch.push(...(await Promise.all(Array.from({ length: n }, (_, j) => quoteAndSign(relayUrl, client, i + j)))));
    }
    let next = 0;
    let accepted = 0;
    let limited = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let k = next++; k < batch.length; k = next++) {
          try {
            await submit(relayUrl, batch[k] as SignedQuote);
            accepted++;
          } catch (e) {
            if (e instanceof RelayHttpError && e.code === "rate_limited") limited++;
            else throw e;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const perSecond = accepted / seconds;
    console.log(
      `burst of ${batch.length} at concurrency ${CONCURRENCY}: ${accepted} submitted in ${seconds.toFixed(2)} s` +
        ` = ${perSecond.toFixed(1)} executions/s${limited ? ` (${limited} rate-limited)` : ""}`,
    );

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

    console.log(`\n${verdict("relay part of a submission, p50", percentile(relayParts, 50), 20, "lower", "ms")}`);
    if (solanaRelayParts.length > 0) {
      const p50 = percentile(solanaRelayParts, 50);
      console.log(verdict("relay part of a Solana submission, p50", p50, 20, "lower", "ms"));
    }
  } finally {
    await Promise.allSettled(fleet.map((c) => c.stop()));
    await relay?.stop();
    await timer.stop();
    await solanaTimer.stop();
    await anvil.stop();
    await solana.stop();
  }
}

await main();
