import type { ChainHead } from "../head";
import { rpcCall as call } from "../rpc-call";

/** EVM: the latest block, with its timestamp, in one call. */
export async function evmHead(rpcUrl: string, signal: AbortSignal): Promise<ChainHead> {
  const block = await call<{ number: string; timestamp: string } | null>(
    rpcUrl,
    "eth_getBlockByNumber",
    ["latest", false],
    signal,
  );
  if (!block) throw new Error("eth_getBlockByNumber: no latest block");
  return { number: Number(BigInt(block.number)), time: Number(BigInt(block.timestamp)) * 1000 };
}
