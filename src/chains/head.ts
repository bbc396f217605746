import type { ChainConfig } from "../config/schema";

/** A chain's latest block as its RPC sees it: number (EVM) or slot (Solana), and its time if known (unix ms). */
export interface ChainHead {
  number: number;
  time: number | null;
}

/** One JSON-RPC call with the caller's signal; rejects on a network error, an HTTP error or an RPC error. */
async function call<T>(rpcUrl: string, method: string, params: unknown[], signal: AbortSignal): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal,
  });
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
  const body = (await res.json()) as { result?: T; error?: { message?: string } };
  if (body.error || !("result" in body))
    throw new Error(`${method}: ${body.error?.message ?? "not a JSON-RPC answer"}`);
  return body.result as T;
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
