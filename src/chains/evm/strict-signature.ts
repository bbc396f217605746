import { secp256k1 } from "@noble/curves/secp256k1";
import { type Address, getAddress, type Hex } from "viem";
import { publicKeyToAddress } from "viem/accounts";

/**
 * The one rule every EVM signature the relay verifies must meet (docs/api.md, "Signatures"): the rule of
 * OpenZeppelin's `ECDSA.tryRecover`, through which the executor, the reactor and Permit2 check every
 * signature on chain. Exactly 65 bytes `r ‖ s ‖ v`; `v` 27 or 28 (ecrecover refuses 0/1 and anything
 * else); `r` a scalar in [1, n); `s` in [1, n/2] (EIP-2: the high-s twin of a signature is refused). What
 * passes this rule, ecrecover recovers, and to the same key the relay recovers.
 */
const { Point } = secp256k1;
const ORDER = Point.Fn.ORDER;
const HALF_ORDER = ORDER >> 1n;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** A signature that meets the rule: its scalars and the parity of its R's y (`v` − 27). */
export interface StrictSignature {
  r: bigint;
  s: bigint;
  yParity: 0 | 1;
}

/** `r`, `s` and `v` of a 65-byte signature in 0x hex; null for any other shape. */
function split(signature: string): { r: bigint; s: bigint; v: number } | null {
  if (!SIGNATURE.test(signature)) return null;
  return {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    v: Number.parseInt(signature.slice(130), 16),
  };
}

/**
 * The part of the rule `signature` breaks, said so that a signer can mend it (a refusal's message); null
 * when it meets the rule, though it may still be another key's.
 */
export function strictRuleBreach(signature: string): string | null {
  const parts = split(signature);
  if (!parts) return "a signature is 65 bytes r ‖ s ‖ v: 0x and 130 hex digits";
  const { r, s, v } = parts;
  if (v !== 27 && v !== 28) return `its v is ${v}: it must be 27 or 28 (add 27 to a recovery id 0 or 1)`;
  if (r === 0n || r >= ORDER) return "its r is outside [1, n)";
  if (s === 0n) return "its s is 0";
  if (s > HALF_ORDER) {
    return "its s is high (above n/2): the low-s rule (EIP-2) refuses it; sign again, or use n − s and flip v (27 ↔ 28)";
  }
  return null;
}

/** The signature's parts when `signature` (0x hex) meets the rule, else null. */
export function strictSignature(signature: string): StrictSignature | null {
  const parts = split(signature);
  if (!parts || strictRuleBreach(signature) !== null) return null;
  return { r: parts.r, s: parts.s, yParity: parts.v === 27 ? 0 : 1 };
}

/**
 * The signer of `hash` (32 bytes) as ecrecover finds it, with its uncompressed public key (0x04…), when
 * the signature meets the rule; null when it does not or recovers no key.
 */
export function recoverStrict(hash: Hex, signature: string): { address: Address; publicKey: Hex } | null {
  const parts = strictSignature(signature);
  if (!parts) return null;
  try {
    const key = new secp256k1.Signature(parts.r, parts.s)
      .addRecoveryBit(parts.yParity)
      .recoverPublicKey(hash.slice(2))
      .toHex(false);
    const publicKey: Hex = `0x${key}`;
    return { address: getAddress(publicKeyToAddress(publicKey)), publicKey };
  } catch {
    return null;
  }
}

/** Whether `signature` meets the rule and recovers to `address` from `hash`. */
export function signedBy(hash: Hex, signature: string, address: string): boolean {
  const signer = recoverStrict(hash, signature);
  return signer !== null && signer.address.toLowerCase() === address.toLowerCase();
}
