/**
 * The Solana run of the execution benchmark (bench/README.md, "How to measure"): submissions of Solana swaps one
 * at a time, each on a fresh quote signed by the `src/clients/taker` library, their latency split into
 * the relay's part and the Solana RPC's part as on EVM (bench/rpc-timer.ts between the relay and the harness).
 */
import { localSolanaKeypair } from "../scripts/lib/solana-harness/accounts";
import { requestSolanaQuote, submitExecution } from "../src/clients/taker/relay";
import { signSolanaQuote } from "../src/clients/taker/solana-swap";
import { clientHeaders } from "./clients";
import { busyTime, type RpcCall, type RpcTimer } from "./rpc-timer";
import { fmt, percentile } from "./stats";

/** The local takers the harness funds; 20 submissions per taker in 10 s is the relay's limit, far above this pace. */
const TAKERS = [5, 6, 7, 8].map((n) => localSolanaKeypair(`taker:${n}`));
const SELL_AMOUNT = "1580000000";

/**
 * The keeper's calls for a submission: the simulation, the look-up before the send (a signature status
 * without history) and the send. The indexer's calls (statuses with history, block height, transactions,
 * slots) and the corridors' blockhash reads are not.
 */
export function isSolanaSubmissionCall(call: RpcCall): boolean {
  return call.methods.every((m, i) => {
    if (m === "simulateTransaction" || m === "sendTransaction") return true;
    const options = call.params[i]?.[1] as { searchTransactionHistory?: boolean } | undefined;
    return m === "getSignatureStatuses" && options?.searchTransactionHistory === false;
  });
}

export interface SolanaRunOptions {
  relayUrl: string;
  /** The pass-through the relay reaches the harness by. */
  timer: RpcTimer;
  chainId: number;
  sellToken: string;
  buyToken: string;
  submissions: number;
}

/** Sequential Solana submissions after 5 warm-up ones; prints the split and returns the relay parts (ms). */
export async function solanaExecutionRun(options: SolanaRunOptions): Promise<number[]> {
  const { relayUrl, timer } = options;
  const totals: number[] = [];
  const rpcParts: number[] = [];
  const relayParts: number[] = [];
  for (let i = 0; i < options.submissions + 5; i++) {
    const keypair = TAKERS[i % TAKERS.length] as (typeof TAKERS)[number];
    // One at a time, as one client (bench/clients.ts), like the EVM submissions one at a time.
    const asClient = { headers: clientHeaders(0) };
    const quote = await requestSolanaQuote(
      relayUrl,
      {
        chainId: options.chainId,
        sellToken: options.sellToken,
        buyToken: options.buyToken,
        sellAmount: SELL_AMOUNT,
        taker: keypair.publicKey.toBase58(),
      },
      asClient,
    );
    const transaction = signSolanaQuote(keypair, quote);
    const from = performance.now();
    const { httpStatus, answer } = await submitExecution(
      relayUrl,
      { quoteId: quote.quoteId, transaction },
      { idempotencyKey: crypto.randomUUID(), notLeaderRetries: 0, ...asClient },
    );
    const to = performance.now();
    if (httpStatus !== 202) throw new Error(`Solana submission answered ${httpStatus} ${JSON.stringify(answer)}`);
    if (i < 5) continue;
    const calls = timer.callsSince(from).filter((c) => c.start < to && isSolanaSubmissionCall(c));
    const rpc = busyTime(calls, from, to);
    totals.push(to - from);
    rpcParts.push(rpc);
    relayParts.push(to - from - rpc);
  }
  console.log(
    `Solana, sequential, ${options.submissions} submissions: total p50 ${fmt(percentile(totals, 50))} p99 ${fmt(percentile(totals, 99))}` +
      ` | Solana RPC p50 ${fmt(percentile(rpcParts, 50))} p99 ${fmt(percentile(rpcParts, 99))}` +
      ` | relay p50 ${fmt(percentile(relayParts, 50))} p99 ${fmt(percentile(relayParts, 99))}`,
  );
  return relayParts;
}
