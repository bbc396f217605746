/**
 * Execution benchmark: submission latency of `POST /v1/executions`, split into the relay's own part and
 * the chain RPC's part, and sustained executions/s, against a local stack the benchmark starts itself
 * (anvil, contracts, the Solana harness, `wrangler dev`, two reference resolvers on both chains,
 * bench/execute-stack.ts); then the same latency split for Solana swaps (bench/execute-solana.ts); then
 * the burst again on a relay whose `KEEPER_PRIVATE_KEY` is a pool of four keys. `npm run bench:execute`
 * (bench/README.md).
 *
 * The RPC part is measured at the RPC boundary: the relay's chain URL is a pass-through to anvil
 * (bench/rpc-timer.ts) that records when each of the keeper's calls was in flight. A submission's RPC
 * part is the time, within its request, that at least one submission call (simulation, gas estimate,
 * nonce and fee reads, eth_sendRawTransaction) was in flight; the relay's part is the rest.
 */

import { anvilPrivateKey, LOCAL_ACCOUNTS, offlineRelayConfig } from "../scripts/lib/local-stack";
import { anvilAccount } from "../src/clients/resolver/keys";
import { solanaExecutionRun } from "./execute-solana";
import {
  type Burst,
  burst,
  describeBurst,
  drained,
  isSubmissionCall,
  POOL_SIZE,
  perSecond,
  pool,
  quoteAndSign,
  type Stack,
  splitAtRpc,
  startStack,
  submit,
  withRelay,
} from "./execute-stack";
import { fmt, machineLoad, notMeasured, Phases, percentile, reported, verdict } from "./stats";

const SEQUENTIAL = Number(process.env.BENCH_EXECUTIONS ?? 100);
const BURST = Number(process.env.BENCH_BURST ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SOLANA_EXECUTIONS = Number(process.env.BENCH_SOLANA_EXECUTIONS ?? 30);

/** Sequential submissions, one at a time, so every submission call in its window is its own. */
async function sequential(relayUrl: string, stack: Stack) {
  const totals: number[] = [];
  const rpcParts: number[] = [];
  const relayParts: number[] = [];
  const rpcCalls: number[] = [];
  const phases = new Phases();
  for (let i = 0; i < SEQUENTIAL + 10; i++) {
    const signed = await quoteAndSign(relayUrl, stack.client, i, 0);
    const from = performance.now();
    await submit(relayUrl, signed, 0, i < 10 ? undefined : phases);
    const to = performance.now();
    if (i < 10) continue; // warm-up: the keeper object starting, first connections
    const split = splitAtRpc(stack.timer, from, to, isSubmissionCall);
    totals.push(split.total);
    rpcParts.push(split.rpc);
    relayParts.push(split.relay);
    rpcCalls.push(split.calls);
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
  const stack = await startStack();
  const { client, timer, solanaTimer } = stack;
  const summary: string[] = [];
  try {
    const single = await withRelay(stack, [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)], async (relayUrl) => {
      const relayParts = await sequential(relayUrl, stack);
      const result = await burst(relayUrl, client, BURST, CONCURRENCY);
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
      const result: Burst = await withRelay(stack, keys, (relayUrl) => burst(relayUrl, client, BURST, CONCURRENCY));
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
    await stack.stop();
  }
}

await main();
