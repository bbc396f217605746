import type { ChainConfig, RelayConfig } from "./config/schema";

/** A chain and an unordered pair of its tokens: the unit of an auction and of a CorridorDO. */
export interface Corridor {
  /** Canonical key `<chainId>:<tokenA>:<tokenB>`, tokens normalised and sorted. */
  key: string;
  chain: ChainConfig;
  tokens: [string, string];
}

/** EVM addresses compare case-insensitively, Solana's base58 keys exactly. */
export function normaliseToken(chain: ChainConfig, token: string): string {
  return chain.kind === "evm" ? token.toLowerCase() : token;
}

export function corridorKey(chainId: number, a: string, b: string): string {
  return a < b ? `${chainId}:${a}:${b}` : `${chainId}:${b}:${a}`;
}

/**
 * The corridor of two tokens on a chain, or null when the relay does not serve it: on EVM any two
 * distinct configured tokens, on Solana only the configured `pairs`.
 */
export function findCorridor(config: RelayConfig, chainId: number, tokenA: string, tokenB: string): Corridor | null {
  const chain = config.chains.find((c) => c.chainId === chainId);
  if (!chain) return null;
  const a = normaliseToken(chain, tokenA);
  const b = normaliseToken(chain, tokenB);
  if (a === b) return null;
  const known = new Set(chain.tokens.map((t) => normaliseToken(chain, t.address)));
  if (!known.has(a) || !known.has(b)) return null;
  if (chain.kind === "solana" && !chain.pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a))) {
    return null;
  }
  const key = corridorKey(chainId, a, b);
  const [, first, second] = key.split(":") as [string, string, string];
  return { key, chain, tokens: [first, second] };
}

/** Every corridor the configuration serves. */
export function allCorridors(config: RelayConfig): Corridor[] {
  const out: Corridor[] = [];
  for (const chain of config.chains) {
    const pairs: [string, string][] =
      chain.kind === "solana"
        ? chain.pairs.map(([a, b]) => [a, b])
        : chain.tokens.flatMap((t, i) =>
            chain.tokens.slice(i + 1).map((u): [string, string] => [t.address, u.address]),
          );
    for (const [a, b] of pairs) {
      const corridor = findCorridor(config, chain.chainId, a, b);
      if (corridor) out.push(corridor);
    }
  }
  return out;
}
