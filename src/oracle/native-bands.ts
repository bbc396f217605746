import type { RelayConfig } from "../config";
import type { Band } from "../schemas";
import { chainTokenAssets } from "./band-corridors";
import { bandsUsed, type NativePrices, nativePrices } from "./native-prices";

/**
 * The configured natives (`oracle.natives`) against one round's bands (docs/oracle.md, "Native prices"):
 * what each chain's native costs in its tokens, and which bands that takes.
 */

/** The native prices of a chain from a round's bands; null when `oracle.natives` names no native for it. */
export function nativePricesFor(
  config: RelayConfig,
  chainId: number,
  round: { at: number; bands: Readonly<Record<string, Band>> },
): NativePrices | null {
  const native = config.oracle.natives.find((n) => n.chainId === chainId);
  if (!native) return null;
  return nativePrices(native, chainTokenAssets(config, chainId), round.bands, round.at);
}

/** The pair keys of every band some native's prices use, each once, in configuration order. */
export function nativeBandKeys(config: RelayConfig, bands: Readonly<Record<string, Band>>): string[] {
  const keys = config.oracle.natives.flatMap((n) => bandsUsed(n.asset, chainTokenAssets(config, n.chainId), bands));
  return [...new Set(keys)];
}
