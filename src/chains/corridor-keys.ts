import { keccak256, stringToBytes } from "viem";
import type { ChainConfig, RelayConfig } from "../config";
import { TAG_HEX, tagOf } from "../ids";
import { chainPairs, normaliseAddress, quotesPair } from "./addresses";

/** A chain and an unordered pair of its tokens: the unit of an auction and of a CorridorDO. */
export interface Corridor {
  /** Canonical key `<chainId>:<tokenA>:<tokenB>`, tokens normalised and sorted. */
  key: string;
  chain: ChainConfig;
  tokens: [string, string];
}

export function corridorKey(chainId: number, a: string, b: string): string {
  return a < b ? `${chainId}:${a}:${b}` : `${chainId}:${b}:${a}`;
}

/** The corridor of two tokens on a chain, or null when the relay does not quote that pair there. */
export function findCorridor(config: RelayConfig, chainId: number, tokenA: string, tokenB: string): Corridor | null {
  const chain = config.chains.find((c) => c.chainId === chainId);
  if (!chain || !quotesPair(chain, tokenA, tokenB)) return null;
  const key = corridorKey(chainId, normaliseAddress(chain.kind, tokenA), normaliseAddress(chain.kind, tokenB));
  const [, first, second] = key.split(":") as [string, string, string];
  return { key, chain, tokens: [first, second] };
}

/** The corridor a canonical key names, or null when the configuration no longer serves it. */
export function corridorOfKey(config: RelayConfig, key: string): Corridor | null {
  const [chainId, a, b] = key.split(":");
  if (!chainId || !a || !b) return null;
  const corridor = findCorridor(config, Number(chainId), a, b);
  return corridor?.key === key ? corridor : null;
}

/** Every corridor the configuration serves. */
export function allCorridors(config: RelayConfig): Corridor[] {
  return config.chains.flatMap((chain) =>
    chainPairs(chain).flatMap(([a, b]) => findCorridor(config, chain.chainId, a, b) ?? []),
  );
}

/**
 * A corridor's short tag, the first hex digits of its quote ids: a read that misses a quote in D1 finds
 * the corridor object holding it (docs/architecture.md, "Write-behind").
 */
export const corridorTag = (key: string): string => keccak256(stringToBytes(key)).slice(2, 2 + TAG_HEX);

const tagsByConfig = new WeakMap<RelayConfig, Map<string, string[]>>();

/** The keys of the corridors whose tag the quote id carries (one, but for a 32-bit collision). */
export function corridorsOfQuoteId(config: RelayConfig, quoteId: string): string[] {
  let tags = tagsByConfig.get(config);
  if (!tags) {
    tags = new Map();
    for (const { key } of allCorridors(config))
      tags.set(corridorTag(key), [...(tags.get(corridorTag(key)) ?? []), key]);
    tagsByConfig.set(config, tags);
  }
  return tags.get(tagOf(quoteId)) ?? [];
}

/**
 * The chains whose corridors a tagged id names (a quote's, or its execution's, which carries the quote's
 * tag): one, but for a 32-bit collision across chains; none when no corridor of the configuration has it.
 */
export function chainsOfId(config: RelayConfig, id: string): number[] {
  return [...new Set(corridorsOfQuoteId(config, id).map((key) => Number(key.slice(0, key.indexOf(":")))))];
}
