import type { ChainConfig } from "../config";
import { fetcherWith, jsonRpcBatch } from "./evm/call-batch";
import { rpcCall } from "./rpc-call";

/** Accounts one `getMultipleAccounts` may ask for. */
const SOLANA_ACCOUNTS_PER_CALL = 100;

/** EVM: `eth_getBalance` of every address at the latest block, in one batch; wei. */
async function evmBalance(rpcUrl: string, addresses: readonly string[], signal: AbortSignal): Promise<bigint> {
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

/** Solana: the lamports of every account, confirmed, by `getMultipleAccounts` without data; an account that does not exist holds none. */
async function solanaBalance(rpcUrl: string, addresses: readonly string[], signal: AbortSignal): Promise<bigint> {
  const chunks: string[][] = [];
  for (let i = 0; i < addresses.length; i += SOLANA_ACCOUNTS_PER_CALL)
    chunks.push(addresses.slice(i, i + SOLANA_ACCOUNTS_PER_CALL));
  const config = { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: 0 } };
  const answers = await Promise.all(
    chunks.map((chunk) =>
      rpcCall<{ value: ({ lamports: number } | null)[] }>(rpcUrl, "getMultipleAccounts", [chunk, config], signal),
    ),
  );
  return answers.flatMap((a) => a.value).reduce((sum, account) => sum + BigInt(account?.lamports ?? 0), 0n);
}

/**
 * What `addresses` hold together in the chain's native base units (wei, lamports): the keeper's funds
 * for the health check (docs/operations.md, "Health").
 */
export function readNativeBalance(
  chain: ChainConfig,
  addresses: readonly string[],
  signal: AbortSignal,
): Promise<bigint> {
  if (addresses.length === 0) return Promise.resolve(0n);
  return chain.kind === "evm"
    ? evmBalance(chain.rpcUrl, addresses, signal)
    : solanaBalance(chain.rpcUrl, addresses, signal);
}
