import { secp256k1 } from "@noble/curves/secp256k1";
import { type Hex, hexToBytes } from "viem";

/**
 * ECDSA verification against a known public key. A resolver's key is recovered once, from its auth
 * signature; every bid after that is verified against that key with precomputed multiples of it,
 * which costs under half of recovering the signer from scratch on each bid (bench/README.md).
 */
const { Point } = secp256k1;
const Fn = Point.Fn;
const Fp = Point.Fp;
const HALF_ORDER = Fn.ORDER >> 1n;

/**
 * Whether the affine x of projective `R` (x = X / Z), reduced mod the group order, is `r`, without the
 * field inversion that going to affine costs: X = r·Z, or X = (r + n)·Z when r + n is still a field element.
 */
function xIsR(R: InstanceType<typeof Point>, r: bigint): boolean {
  if (Fp.eql(R.X, Fp.mul(r, R.Z))) return true;
  const rn = r + Fn.ORDER;
  return rn < Fp.ORDER && Fp.eql(R.X, Fp.mul(rn, R.Z));
}

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

/** Whether the 65-byte `signature` (r, s, v) over the 32-byte `hash` is by `publicKey` (uncompressed, 0x04…). */
export function verifyWithKey(hash: Hex, signature: Hex, publicKey: Hex): boolean {
  try {
    const bytes = hexToBytes(signature);
    if (bytes.length !== 65) return false;
    const { r, s } = secp256k1.Signature.fromBytes(bytes.slice(0, 64), "compact");
    // Wallets and viem produce low-s signatures; a high-s twin of one is refused.
    if (s > HALF_ORDER) return false;
    const sInv = Fn.inv(s);
    const R = Point.BASE.multiplyUnsafe(Fn.create(BigInt(hash) * sInv)).add(
      pointOf(publicKey).multiplyUnsafe(Fn.create(r * sInv)),
    );
    return !R.is0() && xIsR(R, r);
  } catch {
    return false;
  }
}
