import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";

const { Point } = ed25519;
const L = Point.Fn.ORDER;

function scalarLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/**
 * Whether `signature` is `publicKey`'s (base58) ed25519 signature over `message`, by the rule the Solana
 * runtime verifies with (ed25519-dalek's `verify_strict`; docs/api.md, "Signatures"):
 * - s canonical (s < L), and the key and R canonical encodings (y < p, no x = 0 with its sign bit set);
 * - neither the key nor R of small order (a torsion point: R = a torsion point signs for anyone who
 *   knows the key's scalar a, with s = k·a, under the cofactored check);
 * - the cofactorless equation [s]B = R + [k]A, k = SHA-512(R ‖ A ‖ message) mod L. The cofactored one
 *   that RFC 8032 allows (and noble's `verify` applies) also accepts signatures whose R, or whose key,
 *   carries a torsion component, which the runtime refuses.
 */
export function verifyEd25519(publicKey: string, signature: Uint8Array, message: Uint8Array): boolean {
  try {
    const key = base58.decode(publicKey);
    if (key.length !== 32 || signature.length !== 64) return false;
    const rBytes = signature.subarray(0, 32);
    const s = scalarLE(signature.subarray(32));
    if (s >= L) return false;
    const A = Point.fromBytes(key, false);
    const R = Point.fromBytes(rBytes, false);
    if (A.isSmallOrder() || R.isSmallOrder()) return false;
    const hashed = new Uint8Array(64 + message.length);
    hashed.set(rBytes);
    hashed.set(key, 32);
    hashed.set(message, 64);
    const k = scalarLE(ed25519.CURVE.hash(hashed)) % L;
    return Point.BASE.multiplyUnsafe(s).equals(R.add(A.multiplyUnsafe(k)));
  } catch {
    return false;
  }
}

/** Whether `signature` (base58) is `publicKey`'s (base58) ed25519 signature over the UTF-8 `text`. */
export function verifyEd25519Text(publicKey: string, signature: string, text: string): boolean {
  try {
    return verifyEd25519(publicKey, base58.decode(signature), new TextEncoder().encode(text));
  } catch {
    return false;
  }
}
