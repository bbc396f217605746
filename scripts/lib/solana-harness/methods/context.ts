/**
 * What every RPC method handler works with. Handlers answer every amount the Solana JSON-RPC types u64
 * (lamports, balances, fees, prioritization fees) as a bigint, which jsonrpc.ts writes as its exact digits:
 * a JS number would round anything above 2^53 (docs/local-stack.md, "The local Solana chain").
 */
import type { Keypair } from "@solana/web3.js";
import type { LocalChain } from "../chain";

export interface RpcContext {
  chain: LocalChain;
  /** Pays `requestAirdrop`. */
  faucet: Keypair;
}

export type Method = (params: unknown[], ctx: RpcContext) => unknown;

/** A result `{ context: { slot }, value }`, as the methods that read state answer. */
export function withContext<T>(slot: number, value: T): { context: { slot: number }; value: T } {
  return { context: { slot }, value };
}
