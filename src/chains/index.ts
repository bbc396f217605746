import type { ChainConfig } from "../config/schema";
import type { ChainAdapter, ChainSettler } from "./adapter";
import { evmAdapter } from "./evm/adapter";
import { evmSettler } from "./evm/settlement";

/** The adapter of a chain's kind. Solana corridors are not quoted yet (see docs/api.md). */
export function adapterFor(chain: ChainConfig): ChainAdapter {
  if (chain.kind === "evm") return evmAdapter;
  throw new Error(`no quote adapter for ${chain.kind} chains yet`);
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
