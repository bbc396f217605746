import { secp256k1 } from "@noble/curves/secp256k1";
import { type Hex, toHex } from "viem";

/**
 * Variants of a valid 65-byte EVM signature (r ‖ s ‖ v, v 27 or 28) that the chain refuses
 * (docs/api.md, "Signatures"), for tests that show the relay refusing them too.
 */

const ORDER = secp256k1.Point.Fn.ORDER;

/** The signature with its last byte set to `v`. */
export const withV = (signature: string, v: number): Hex =>
  `${signature.slice(0, 130)}${v.toString(16).padStart(2, "0")}` as Hex;

/** The signature with `v` flipped (27 ↔ 28): the same r and s, the other R. */
export const flipV = (signature: string): Hex => withV(signature, signature.endsWith("1b") ? 28 : 27);

/** The signature with `v` as a y parity (0 or 1), as some signers write it. */
export const vAsParity = (signature: string): Hex => withV(signature, signature.endsWith("1b") ? 0 : 1);

/** The high-s twin: s → n − s and v flipped, which recovers the same key by plain ecrecover (pre EIP-2). */
export function highS(signature: string): Hex {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  return flipV(`${signature.slice(0, 66)}${toHex(ORDER - s, { size: 32 }).slice(2)}${signature.slice(130)}`);
}
