import { getAddress } from "viem";

/**
 * Address facts of each chain kind (docs/architecture.md, "Where each fact lives"): what an address looks
 * like, how two are compared, and which token pairs a chain quotes. Pure functions over the `kind` and
 * tokens of a chain, so the relay's configuration, its public record (2.6) and the clients share them.
 */

export type ChainKind = "evm" | "solana";

/** The part of a chain (configuration or record 2.6) that decides its corridors. */
export interface ChainPairs {
  kind: ChainKind;
  tokens: readonly { address: string }[];
  /** Solana: the configured corridors. EVM chains quote every pair of their tokens. */
  pairs?: readonly (readonly string[])[];
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: a mixed-case EVM address carries a checksum and must match it, so a typo is caught; an address
 * in one case throughout carries none and is accepted as it is.
 */
function isEvmAddress(value: string): boolean {
  if (!EVM_ADDRESS.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return getAddress(value) === value;
}

const SHAPES: Record<ChainKind, { test: (value: string) => boolean; description: string }> = {
  evm: { test: isEvmAddress, description: "a 0x-prefixed 20-byte hex address (EIP-55 checksum if mixed-case)" },
  solana: { test: (v) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(v), description: "a base58 public key" },
};

export const isAddressOf = (kind: ChainKind, value: string) => SHAPES[kind].test(value);

export const addressDescription = (kind: ChainKind) => SHAPES[kind].description;

/** The form addresses are compared and keyed in: EVM hex is case-insensitive, Solana's base58 is not. */
export const normaliseAddress = (kind: ChainKind, address: string) =>
  kind === "evm" ? address.toLowerCase() : address;

/**
 * The key an address is grouped by where its chain's kind is not at hand (a node's inventory merged across
 * its corridors): 0x-prefixed hex, whose case is only EIP-55's checksum, in lower case; anything else (a
 * Solana key: base58 is case-sensitive and has no 0) as it is.
 */
export const addressKey = (address: string) => (address.startsWith("0x") ? address.toLowerCase() : address);

/** The form addresses are shown in, whatever casing a caller sent: EVM in EIP-55 checksum case, Solana as it is. */
export const canonicalAddress = (kind: ChainKind, address: string) =>
  kind === "evm" && EVM_ADDRESS.test(address) ? getAddress(address) : address;

export const sameAddressOf = (kind: ChainKind, a: string, b: string) =>
  normaliseAddress(kind, a) === normaliseAddress(kind, b);

/** Every unordered token pair the chain quotes, as configured (not normalised). */
export function chainPairs(chain: ChainPairs): [string, string][] {
  if (chain.kind === "solana") {
    return (chain.pairs ?? []).flatMap(([a, b]) => (a && b ? [[a, b] as [string, string]] : []));
  }
  return chain.tokens.flatMap((t, i) => chain.tokens.slice(i + 1).map((u): [string, string] => [t.address, u.address]));
}

/** Whether the chain quotes the pair `a`/`b`, in either order. */
export function quotesPair(chain: ChainPairs, a: string, b: string): boolean {
  const [x, y] = [normaliseAddress(chain.kind, a), normaliseAddress(chain.kind, b)];
  if (x === y) return false;
  return chainPairs(chain).some(([p, q]) => {
    const [m, n] = [normaliseAddress(chain.kind, p), normaliseAddress(chain.kind, q)];
    return (m === x && n === y) || (m === y && n === x);
  });
}

/** A chain's address facts as its adapter offers them (src/chains/adapter.ts), for one kind and token list. */
export function addressFacts<T extends { address: string }>(kind: ChainKind, tokens: readonly T[]) {
  const sameAddress = (a: string, b: string) => sameAddressOf(kind, a, b);
  return {
    kind,
    isAddress: (value: string) => isAddressOf(kind, value),
    addressDescription: addressDescription(kind),
    sameAddress,
    normalise: (address: string) => normaliseAddress(kind, address),
    canonical: (address: string) => canonicalAddress(kind, address),
    token: (address: string): T | null => tokens.find((t) => sameAddress(t.address, address)) ?? null,
  };
}
