import { normalizeZ } from "@noble/curves/abstract/curve";
import { secp256k1 } from "@noble/curves/secp256k1";
import type { Hex } from "viem";
import { strictSignature } from "./strict-signature";

/**
 * ECDSA verification against a known public key, the check every EVM bid gets (docs/resolver-protocol.md,
 * "When signatures are checked"). A resolver's key is recovered once, from its auth signature; every bid
 * after that is verified against it as u₁·G + u₂·Q, each product a sum of precomputed multiples of the
 * point, one per signed window of the scalar. The inputs are public, so the sums need not take constant
 * time: noble's own `multiplyUnsafe` on a precomputed point is its constant-time `multiply`, which adds a
 * dummy point beside each real one and converts the product to affine coordinates (one inversion each).
 */
const { Point } = secp256k1;
type CurvePoint = InstanceType<typeof Point>;
const Fn = Point.Fn;
const Fp = Point.Fp;

/** Bits per window: 33 windows of 128 multiples each, one addition per window of a scalar. */
const WINDOW_BITS = 8;
const WINDOWS = Math.ceil(256 / WINDOW_BITS) + 1;
const HALF = 2 ** (WINDOW_BITS - 1);
const WINDOW_MASK = BigInt(2 ** WINDOW_BITS - 1);
const SHIFT = BigInt(WINDOW_BITS);

/** k·2^(8j)·point for every window j and 1 ≤ k ≤ 128, at [128j + k − 1], in affine form. */
function multiplesOf(point: CurvePoint): CurvePoint[] {
  const table: CurvePoint[] = [];
  let base = point;
  for (let j = 0; j < WINDOWS; j++) {
    let sum = base;
    table.push(sum);
    for (let k = 2; k <= HALF; k++) {
      sum = sum.add(base);
      table.push(sum);
    }
    base = sum.double();
  }
  return normalizeZ(Point, table);
}

/**
 * acc + scalar·point, from the point's multiples: each window's digit is taken in (−128, 128], a digit
 * above 128 borrowing from the next window, so that a negative digit adds a negated multiple.
 */
function addMultiple(acc: CurvePoint, multiples: CurvePoint[], scalar: bigint): CurvePoint {
  let rest = scalar;
  for (let window = 0; rest > 0n; window++) {
    let digit = Number(rest & WINDOW_MASK);
    rest >>= SHIFT;
    if (digit > HALF) {
      digit -= 2 * HALF;
      rest += 1n;
    }
    if (digit > 0) acc = acc.add(multiples[window * HALF + digit - 1] as CurvePoint);
    else if (digit < 0) acc = acc.add((multiples[window * HALF - digit - 1] as CurvePoint).negate());
  }
  return acc;
}

let generatorMultiples: CurvePoint[] | undefined;
const keyMultiples = new Map<string, CurvePoint[]>();
/** A table is 4,224 points (about 0.7 MB); a corridor's connected resolvers are far fewer than this. */
const MAX_CACHED_KEYS = 64;

function multiplesOfKey(publicKey: Hex): CurvePoint[] {
  let multiples = keyMultiples.get(publicKey);
  if (!multiples) {
    multiples = multiplesOf(Point.fromHex(publicKey.slice(2)));
    if (keyMultiples.size >= MAX_CACHED_KEYS) keyMultiples.clear();
    keyMultiples.set(publicKey, multiples);
  }
  return multiples;
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
    generatorMultiples ??= multiplesOf(Point.BASE);
    const sInv = Fn.inv(s);
    const hashTimes = addMultiple(Point.ZERO, generatorMultiples, Fn.create(BigInt(hash) * sInv));
    const R = addMultiple(hashTimes, multiplesOfKey(publicKey), Fn.create(r * sInv));
    // Projective R: x = X / Z, checked as X = r·Z without inverting Z; y's parity needs the one inversion.
    if (R.is0() || !Fp.eql(R.X, Fp.mul(r, R.Z))) return false;
    return (Fp.mul(R.Y, Fp.inv(R.Z)) & 1n) === BigInt(yParity);
  } catch {
    return false;
  }
}
