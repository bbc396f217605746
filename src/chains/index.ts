import type { ChainConfig } from "../config/schema";
import type { ChainAdapter } from "./adapter";
import { evmAdapter } from "./evm/adapter";
import { evmSettler } from "./evm/settlement";
import type { ChainSettler } from "./settler";
import { solanaAdapter } from "./solana/adapter";

const adapters = new WeakMap<ChainConfig, ChainAdapter>();

/** The adapter of a configured chain, made once per configuration object. */
export function adapterFor(chain: ChainConfig): ChainAdapter {
  let adapter = adapters.get(chain);
  if (!adapter) {
    adapter = chain.kind === "evm" ? evmAdapter(chain) : solanaAdapter(chain);
    adapters.set(chain, adapter);
  }
  return adapter;
}

/** A keeper private key as the secret holds it: 32 bytes of hex, with or without 0x. */
export function parseKeeperKey(secret: string | undefined): `0x${string}` | null {
  const key = secret?.trim() ?? "";
  const hex = key.startsWith("0x") ? key.slice(2) : key;
  return /^[0-9a-fA-F]{64}$/.test(hex) ? `0x${hex}` : null;
}

/** Settlement on a chain with the keeper's key; null for chains the keeper does not settle (Solana, for now). */
export function settlerFor(chain: ChainConfig, keeperKey: `0x${string}`): ChainSettler | null {
  return chain.kind === "evm" ? evmSettler(chain, keeperKey) : null;
}
