import type { ChainHead } from "../head";
import { rpcCall as call } from "../rpc-call";

/**
 * Solana: the confirmed slot, then its block time; a node that keeps no block times (or has not got the
 * block yet) leaves the time unknown, which is not a failure: the RPC answered.
 */
export async function solanaHead(rpcUrl: string, signal: AbortSignal): Promise<ChainHead> {
  const slot = await call<number>(rpcUrl, "getSlot", [{ commitment: "confirmed" }], signal);
  const seconds = await call<number | null>(rpcUrl, "getBlockTime", [slot], signal).catch(() => null);
  return { number: slot, time: typeof seconds === "number" ? seconds * 1000 : null };
}
