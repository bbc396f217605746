import { type ChainConfig, kindOf } from "./kinds";

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
  return kindOf(chain).readNativeBalance(chain.rpcUrl, addresses, signal);
}
