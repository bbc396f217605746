import { secp256k1 } from "@noble/curves/secp256k1";
import type { Hex } from "viem";
import { strictSignature } from "./strict-signature";

/**
 * ECDSA verification against a known public key. A resolver's key is recovered once, from its auth
 * signature; every bid after that is verified against that key with precomputed multiples of it,
 * which costs under half of recovering the signer from scratch on each bid.
 */
const { Point } = secp256k1;
const Fn = Point.Fn;
const Fp = Point.Fp;

const points = new Map<string, InstanceType<typeof Point>>();
const MAX_CACHED_KEYS = 4096;

function pointOf(publicKey: Hex) {
  let point = points.get(publicKey);
  if (!point) {
    point = Point.fromHex(publicKey.slice(2));
    point.precompute(8, false);
    if (points.size >= MAX_CACHED_KEYS) points.clear();
    points.set(publicKey, point);
  }
  return point;
}

/**
 * Whether the 65-byte `signature` (r, s, v) over the 32-byte `hash` is by `publicKey` (uncompressed,
 * 0x04…) as the chain sees it: the signature meets the strict rule (src/chains/evm/strict-signature.ts)
 * and the point R it implies is the one ecrecover rebuilds from r and v, so ecrecover yields this very
 * key. ecrecover takes R's x to be r itself (never r + n) and its y's parity from v: a signature whose R
 * has x = r + n, or whose v names the other y, verifies in plain ECDSA but recovers another key on chain.
 */
export function verifyWithKey(hash: Hex, signature: Hex, publicKey: Hex): boolean {
  const parts = strictSignature(signature);
  if (!parts) return false;
  const { r, s, yParity } = parts;
  try {
    const sInv = Fn.inv(s);
    const R = Point.BASE.multiplyUnsafe(Fn.create(BigInt(hash) * sInv)).add(
      pointOf(publicKey).multiplyUnsafe(Fn.create(r * sInv)),
    );
    // Projective R: x = X / Z, checked as X = r·Z without inverting Z; y's parity needs the one inversion.
    if (R.is0() || !Fp.eql(R.X, Fp.mul(r, R.Z))) return false;
    return (Fp.mul(R.Y, Fp.inv(R.Z)) & 1n) === BigInt(yParity);
  } catch {
    return false;
  }
}
