import { type ChainConfig, kindOf } from "./kinds";

/** A chain's latest block as its RPC sees it: number (EVM) or slot (Solana), and its time if known (unix ms). */
export interface ChainHead {
  number: number;
  time: number | null;
}

/** Reads a configured chain's head through its RPC (the health check's probe, docs/operations.md). */
export function readHead(chain: ChainConfig, signal: AbortSignal): Promise<ChainHead> {
  return kindOf(chain).readHead(chain.rpcUrl, signal);
}
