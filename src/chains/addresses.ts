import type { PairSource } from "./kind";
import { type ChainKindName, kindOf } from "./kinds";

/**
 * Address facts of each chain kind (docs/architecture.md, "Where each fact lives"): what an address looks
 * like, how two are compared, and which token pairs a chain quotes, each as its kind's entry of the
 * registry says (src/chains/kinds.ts). Pure functions over the `kind` and tokens of a chain, so the
 * relay's configuration, its public record (2.6) and the clients share them.
 */

/** The part of a chain (configuration or record 2.6) that decides its corridors. */
export interface ChainPairs extends PairSource {
  kind: ChainKindName;
}

export const isAddressOf = (kind: ChainKindName, value: string) => kindOf({ kind }).address.test(value);

/** The form addresses are compared and keyed in: EVM hex is case-insensitive, Solana's base58 is not. */
export const normaliseAddress = (kind: ChainKindName, address: string) => kindOf({ kind }).address.normalise(address);

/**
 * The key an address is grouped by where its chain's kind is not at hand (a node's inventory merged across
 * its corridors): 0x-prefixed hex, whose case is only EIP-55's checksum, in lower case; anything else (a
 * Solana key: base58 is case-sensitive and has no 0) as it is.
 */
export const addressKey = (address: string) => (address.startsWith("0x") ? address.toLowerCase() : address);

/** The form addresses are shown in, whatever casing a caller sent: EVM in EIP-55 checksum case, Solana as it is. */
export const canonicalAddress = (kind: ChainKindName, address: string) => kindOf({ kind }).address.canonical(address);

export const sameAddressOf = (kind: ChainKindName, a: string, b: string) =>
  normaliseAddress(kind, a) === normaliseAddress(kind, b);

/** Every unordered token pair the chain quotes, as configured (not normalised). */
export const chainPairs = (chain: ChainPairs): [string, string][] => kindOf(chain).pairs(chain);

/** Whether the chain quotes the pair `a`/`b`, in either order. */
export function quotesPair(chain: ChainPairs, a: string, b: string): boolean {
  const [x, y] = [normaliseAddress(chain.kind, a), normaliseAddress(chain.kind, b)];
  if (x === y) return false;
  return chainPairs(chain).some(([p, q]) => {
    const [m, n] = [normaliseAddress(chain.kind, p), normaliseAddress(chain.kind, q)];
    return (m === x && n === y) || (m === y && n === x);
  });
}
