import type { ChainAdapter, ChainSettler } from "../chains";
import { adapterFor } from "../chains";
import type { ChainConfig } from "../config";
import type { KeeperPort } from "./port";

export interface SettlingChain {
  chain: ChainConfig;
  adapter: ChainAdapter;
  /** The keeper's wallets there, at least one. */
  settlers: readonly ChainSettler[];
}

/** A configured chain with its adapter and the keeper's wallets there; null when the keeper cannot settle on it. */
export function settlingChain(port: KeeperPort, chainId: number): SettlingChain | null {
  const chain = port.config().chains.find((c) => c.chainId === chainId);
  const settlers = chain ? port.settlers(chain) : "no_key";
  return chain && typeof settlers !== "string" && settlers.length > 0
    ? { chain, adapter: adapterFor(chain), settlers }
    : null;
}

/** The wallet that signed a transaction (`keeper`, its address), if the pool still holds its key. */
export function walletOf(settling: SettlingChain, keeper: string): ChainSettler | null {
  return settling.settlers.find((s) => settling.adapter.sameAddress(s.keeper, keeper)) ?? null;
}
