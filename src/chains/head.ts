import type { ChainConfig } from "../config";
import { rpcCall as call } from "./rpc-call";

/** A chain's latest block as its RPC sees it: number (EVM) or slot (Solana), and its time if known (unix ms). */
export interface ChainHead {
  number: number;
  time: number | null;
}

/** EVM: the latest block, with its timestamp, in one call. */
async function evmHead(rpcUrl: string, signal: AbortSignal): Promise<ChainHead> {
  const block = await call<{ number: string; timestamp: string } | null>(
    rpcUrl,
    "eth_getBlockByNumber",
    ["latest", false],
    signal,
  );
  if (!block) throw new Error("eth_getBlockByNumber: no latest block");
  return { number: Number(BigInt(block.number)), time: Number(BigInt(block.timestamp)) * 1000 };
}

/**
 * Solana: the confirmed slot, then its block time; a node that keeps no block times (or has not got the
 * block yet) leaves the time unknown, which is not a failure: the RPC answered.
 */
async function solanaHead(rpcUrl: string, signal: AbortSignal): Promise<ChainHead> {
  const slot = await call<number>(rpcUrl, "getSlot", [{ commitment: "confirmed" }], signal);
  const seconds = await call<number | null>(rpcUrl, "getBlockTime", [slot], signal).catch(() => null);
  return { number: slot, time: typeof seconds === "number" ? seconds * 1000 : null };
}

/** Reads a configured chain's head through its RPC (the health check's probe, docs/operations.md). */
export function readHead(chain: ChainConfig, signal: AbortSignal): Promise<ChainHead> {
  return chain.kind === "evm" ? evmHead(chain.rpcUrl, signal) : solanaHead(chain.rpcUrl, signal);
}
