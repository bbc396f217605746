/**
 * What the chains themselves say about the takers of a chaos run, read from their JSON-RPC and never from
 * the relay: the `RfqFilled` and `LimitFilled` logs that name a taker, the Solana swaps a taker signed
 * (`getSignaturesForAddress`, each naming its quote in its memo), and every taker's token balances.
 * Marked at the start, so only what happened during the run is read.
 */
import type { Address, PublicClient } from "viem";
import { limitReactorAbi } from "../../../src/chains/evm/abi/limit-reactor";
import { rfqExecutorAbi } from "../../../src/chains/evm/abi/rfq-executor";
import { bytes32ToQuoteId } from "../../../src/chains/evm/typed-data";
import { solanaRpc } from "../../../src/chains/solana/rpc";
import { type SplToken, splBalance } from "../../../src/clients/resolver/solana-inventory";
import type { BalanceView, ChainFill, ChainView } from "./ledger";

const erc20BalanceOf = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "holder", type: "address" }],
    outputs: [{ type: "uint256" }],
  },
] as const;

export interface ChainsUnderTest {
  evm: { client: PublicClient; executor: Address; reactor: Address; tokens: readonly Address[] };
  solana: { rpcUrl: string; tokens: readonly SplToken[] } | null;
}

export interface Takers {
  evm: readonly Address[];
  solana: readonly string[];
}

/** Where the run started on each chain, and the balances then. */
export interface ChainMark {
  block: bigint;
  /** Each Solana taker's newest signature before the run (null: none). */
  newest: ReadonlyMap<string, string | null>;
  balances: readonly BalanceView[];
}

interface SignatureInfo {
  signature: string;
  err: unknown;
  memo: string | null;
}

const history = (rpcUrl: string, address: string, until: string | null) =>
  solanaRpc<SignatureInfo[]>(rpcUrl, "getSignaturesForAddress", [
    address,
    { commitment: "confirmed", limit: 1_000, ...(until ? { until } : {}) },
  ]);

async function balances(chains: ChainsUnderTest, takers: Takers): Promise<BalanceView[]> {
  const { client, tokens } = chains.evm;
  const evm = takers.evm.flatMap((taker) =>
    tokens.map(async (token) => {
      const amount = await client.readContract({
        address: token,
        abi: erc20BalanceOf,
        functionName: "balanceOf",
        args: [taker],
      });
      return { kind: "evm" as const, taker, token, before: amount, after: amount };
    }),
  );
  const solana = chains.solana;
  const sol = solana
    ? takers.solana.flatMap((taker) =>
        solana.tokens.map(async (token) => {
          const amount = await splBalance(solana.rpcUrl, taker, token);
          return { kind: "solana" as const, taker, token: token.address, before: amount, after: amount };
        }),
      )
    : [];
  return Promise.all([...evm, ...sol]);
}

export async function markChains(chains: ChainsUnderTest, takers: Takers): Promise<ChainMark> {
  const newest = new Map<string, string | null>();
  for (const taker of chains.solana ? takers.solana : []) {
    const [top] = await history(chains.solana?.rpcUrl ?? "", taker, null);
    newest.set(taker, top?.signature ?? null);
  }
  return { block: await chains.evm.client.getBlockNumber(), newest, balances: await balances(chains, takers) };
}

/** The quote id a swap's memo carries (`[<bytes>] q_…`, as validators write memos), or null. */
export function memoQuoteId(memo: string | null): string | null {
  const match = /^\[\d+\] (q_[0-9a-z]+)$/.exec(memo ?? "");
  return match?.[1] ?? null;
}

export async function readChains(chains: ChainsUnderTest, takers: Takers, mark: ChainMark): Promise<ChainView> {
  const ours = new Set(takers.evm.map((t) => t.toLowerCase()));
  const { client } = chains.evm;
  const [rfq, limit] = await Promise.all([
    client.getContractEvents({
      address: chains.evm.executor,
      abi: rfqExecutorAbi,
      eventName: "RfqFilled",
      fromBlock: mark.block,
    }),
    client.getContractEvents({
      address: chains.evm.reactor,
      abi: limitReactorAbi,
      eventName: "LimitFilled",
      fromBlock: mark.block,
    }),
  ]);
  // A fill of several legs logs an `RfqFilled` per leg: it is one fill, its quote's in its transaction.
  const seen = new Set<string>();
  const firstOfFill = (log: { transactionHash: string; args: { quoteId?: string } }) => {
    const key = `${log.transactionHash}:${log.args.quoteId}`;
    return !seen.has(key) && Boolean(seen.add(key));
  };
  const fills: ChainFill[] = [...rfq, ...limit].flatMap((log) =>
    log.args.taker && ours.has(log.args.taker.toLowerCase()) && log.args.quoteId && firstOfFill(log)
      ? [
          {
            kind: "evm" as const,
            taker: log.args.taker,
            quoteId: bytes32ToQuoteId(log.args.quoteId),
            txHash: log.transactionHash,
          },
        ]
      : [],
  );
  for (const taker of chains.solana ? takers.solana : []) {
    const landed = await history(chains.solana?.rpcUrl ?? "", taker, mark.newest.get(taker) ?? null);
    for (const tx of landed) {
      if (tx.err !== null) continue;
      fills.push({ kind: "solana", taker, quoteId: memoQuoteId(tx.memo), txHash: tx.signature });
    }
  }
  const now = await balances(chains, takers);
  const after = now.map((b, i) => ({ ...b, before: mark.balances[i]?.before ?? b.before }));
  return { fills, balances: after };
}
