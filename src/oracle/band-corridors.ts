import { findCorridor } from "../chains";
import type { ChainConfig, OracleConfig, RelayConfig } from "../config";
import type { TokenAsset } from "./native-prices";
import type { AssetPair } from "./types";

/** A corridor the oracle serves: which of its tokens tracks which asset of the band. */
export interface OracleCorridor {
  /** The canonical corridor key (src/chains/corridor-keys.ts). */
  key: string;
  chainId: number;
  /** Token addresses as the chain spells them. */
  baseToken: string;
  quoteToken: string;
  pair: AssetPair;
}

/** Every corridor `oracle.corridors` maps, in configuration order. */
export function oracleCorridors(config: RelayConfig): OracleCorridor[] {
  const out: OracleCorridor[] = [];
  for (const c of config.oracle.corridors) {
    const chain = config.chains.find((ch) => ch.chainId === c.chainId);
    const base = chain?.tokens.find((t) => t.symbol === c.base);
    const quote = chain?.tokens.find((t) => t.symbol === c.quote);
    if (!base || !quote) continue; // the schema refuses such a configuration
    const corridor = findCorridor(config, c.chainId, base.address, quote.address);
    if (!corridor) continue;
    out.push({
      key: corridor.key,
      chainId: c.chainId,
      baseToken: base.address,
      quoteToken: quote.address,
      pair: { base: c.baseAsset, quote: c.quoteAsset },
    });
  }
  return out;
}

export function oracleCorridor(config: RelayConfig, key: string): OracleCorridor | null {
  return oracleCorridors(config).find((c) => c.key === key) ?? null;
}

/**
 * The band asset (e.g. USD, NGN) a corridor's token tracks, for the band guard and the limit window; null
 * when the oracle does not price the corridor or the token is neither of its pair.
 */
export function bandAssetOf(
  config: RelayConfig,
  corridorKey: string,
  token: string,
  sameAddress: (a: string, b: string) => boolean,
): string | null {
  const mapped = oracleCorridor(config, corridorKey);
  if (!mapped) return null;
  if (sameAddress(token, mapped.baseToken)) return mapped.pair.base;
  return sameAddress(token, mapped.quoteToken) ? mapped.pair.quote : null;
}

/**
 * The band asset each token of a chain tracks, as `oracle.corridors` names it (USDC → USD, cNGN → NGN),
 * in the order of the chain's `tokens`, each address as configured there; a token no corridor of the chain
 * names is left out, and the first corridor naming a token decides its asset.
 */
export function chainTokenAssets(
  config: { chains: readonly ChainConfig[]; oracle: Pick<OracleConfig, "corridors"> },
  chainId: number,
): TokenAsset[] {
  const chain = config.chains.find((c) => c.chainId === chainId);
  const corridors = config.oracle.corridors.filter((c) => c.chainId === chainId);
  return (chain?.tokens ?? []).flatMap((t) => {
    const named = corridors.find((c) => c.base === t.symbol || c.quote === t.symbol);
    if (!named) return [];
    return [{ token: t.address, asset: named.base === t.symbol ? named.baseAsset : named.quoteAsset }];
  });
}

/** The band asset one token of a chain tracks (see `chainTokenAssets`); null when no corridor names it. */
export function tokenBandAsset(
  config: RelayConfig,
  chainId: number,
  token: string,
  sameAddress: (a: string, b: string) => boolean,
): string | null {
  return chainTokenAssets(config, chainId).find((t) => sameAddress(t.token, token))?.asset ?? null;
}
