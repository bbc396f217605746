import { fetcherWith, jsonRpcBatch } from "./call-batch";

/** EVM: `eth_getBalance` of every address at the latest block, in one batch; wei. */
export async function evmBalance(rpcUrl: string, addresses: readonly string[], signal: AbortSignal): Promise<bigint> {
  const requests = addresses.map((a) => ({ method: "eth_getBalance", params: [a, "latest"] }));
  const answers = await jsonRpcBatch(rpcUrl, requests, fetcherWith(signal));
  let total = 0n;
  answers.forEach((answer, i) => {
    const wei = answer.ok && typeof answer.result === "string" && /^0x[0-9a-fA-F]+$/.test(answer.result);
    if (!wei) throw new Error(`eth_getBalance(${addresses[i]}): ${answer.ok ? "not a quantity" : answer.error}`);
    total += BigInt(answer.result as string);
  });
  return total;
}
