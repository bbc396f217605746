import { ED25519_TORSION_SUBGROUP, ed25519 } from "@noble/curves/ed25519";

/**
 * ed25519 signatures that RFC 8032's cofactored check (noble's `verify`, even with `zip215: false`)
 * accepts and the Solana runtime's strict check refuses (docs/api.md, "Signatures"). Each is made by
 * whoever holds the key's secret: the point is a signer that makes its signature fail on chain while it
 * passes a lenient verifier.
 */

const { Point } = ed25519;
const L = Point.Fn.ORDER;

const scalarOf = (bytes: Uint8Array) => {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
};
const bytesOf = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
};
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const challenge = (R: Uint8Array, A: Uint8Array, message: Uint8Array) =>
  scalarOf(ed25519.CURVE.hash(new Uint8Array([...R, ...A, ...message]))) % L;

/** The points of order 8 (all torsion points but the identity and the order-2 and order-4 ones are). */
export const ORDER_8_POINT = Point.fromHex(ED25519_TORSION_SUBGROUP[1] as string);

/** The torsion points, as encoded: the identity first. */
export const SMALL_ORDER_ENCODINGS = ED25519_TORSION_SUBGROUP.map(hexBytes);

/**
 * A signature by `seed`'s key whose R is the small-order point `R` (an encoding of
 * `SMALL_ORDER_ENCODINGS`): s = k·a makes [8][s]B = [8](R + [k]A) hold, whatever R's torsion.
 */
export function smallOrderRSignature(seed: Uint8Array, message: Uint8Array, R: Uint8Array): Uint8Array {
  const { scalar, pointBytes } = ed25519.utils.getExtendedPublicKey(seed);
  const s = (challenge(R, pointBytes, message) * scalar) % L;
  return new Uint8Array([...R, ...bytesOf(s)]);
}

/** A signature by `seed`'s key whose R carries a torsion component: R = [r]B + T8, s = r + k·a. */
export function mixedOrderRSignature(seed: Uint8Array, message: Uint8Array): Uint8Array {
  const { scalar, pointBytes } = ed25519.utils.getExtendedPublicKey(seed);
  const r = 0x1234567890n;
  const R = Point.BASE.multiply(r).add(ORDER_8_POINT).toBytes();
  const s = (r + challenge(R, pointBytes, message) * scalar) % L;
  return new Uint8Array([...R, ...bytesOf(s)]);
}

/**
 * A key with a torsion component, A' = A + T8 (A = [a]B the seed's key), and a signature by it over
 * `message`: s = r + k·a with k over A'. The cofactored check passes; the cofactorless one fails unless
 * k is a multiple of 8, so the message is changed until it is not.
 */
export function mixedOrderKeySignature(
  seed: Uint8Array,
  message: Uint8Array,
): { publicKey: Uint8Array; signature: Uint8Array } {
  const { scalar, point } = ed25519.utils.getExtendedPublicKey(seed);
  const publicKey = point.add(ORDER_8_POINT).toBytes();
  const r = 0x9876543210n;
  const R = Point.BASE.multiply(r).toBytes();
  const k = challenge(R, publicKey, message);
  if (k % 8n === 0n) throw new Error("k is a multiple of 8 for this message: pick another");
  return { publicKey, signature: new Uint8Array([...R, ...bytesOf((r + k * scalar) % L)]) };
}

/** The signature with s replaced by s + L: the same equation, a non-canonical scalar. */
export function nonCanonicalS(signature: Uint8Array): Uint8Array {
  const s = scalarOf(signature.subarray(32)) + L;
  return new Uint8Array([...signature.subarray(0, 32), ...bytesOf(s)]);
}
