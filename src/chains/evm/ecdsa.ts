import { normalizeZ } from "@noble/curves/abstract/curve";
import { secp256k1 } from "@noble/curves/secp256k1";
import type { Hex } from "viem";
import { LruCache } from "../../lru-cache";
import { strictSignature } from "./strict-signature";

/**
 * ECDSA verification against a known public key, the check every EVM bid gets (docs/resolver-protocol.md,
 * "When signatures are checked"). A resolver's key is recovered once, from its auth signature; every bid
 * after that is verified against it as u₁·G + u₂·Q, each product a sum of precomputed affine multiples of
 * the point, one per signed window of the scalar. The inputs are public, so the sums need not take
 * constant time: they run on plain bigints in Jacobian coordinates, each step a mixed addition of an
 * affine multiple (11 field multiplications, no point objects), and the few inversions a check needs
 * are shared by every signature checked together (`verifyEachWithKey`).
 */
const { Point } = secp256k1;
type CurvePoint = InstanceType<typeof Point>;
const P = Point.Fp.ORDER;
const N = Point.Fn.ORDER;

/** Bits per window: 33 windows of 128 multiples each, one addition per window of a scalar. */
const WINDOW_BITS = 8;
const WINDOWS = Math.ceil(256 / WINDOW_BITS) + 1;
const HALF = 2 ** (WINDOW_BITS - 1);
const WINDOW_MASK = BigInt(2 ** WINDOW_BITS - 1);
const SHIFT = BigInt(WINDOW_BITS);

/** k·2^(8j)·point for every window j and 1 ≤ k ≤ 128, at [128j + k − 1]: affine x and y apart. */
interface Multiples {
  xs: bigint[];
  ys: bigint[];
}

function multiplesOf(point: CurvePoint): Multiples {
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
  const affine = normalizeZ(Point, table);
  return { xs: affine.map((p) => p.X), ys: affine.map((p) => p.Y) };
}

/** A point in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity. */
interface Jacobian {
  X: bigint;
  Y: bigint;
  Z: bigint;
}

/** 2·acc (dbl-2009-l, for a curve with a = 0). */
function double(acc: Jacobian): void {
  const { X, Y, Z } = acc;
  const A = (X * X) % P;
  const B = (Y * Y) % P;
  const C = (B * B) % P;
  const XB = X + B;
  const D = (2n * (XB * XB - A - C)) % P;
  const E = (3n * A) % P;
  const X3 = (((E * E - 2n * D) % P) + P) % P;
  acc.Y = (((E * (D - X3) - 8n * C) % P) + P) % P;
  acc.X = X3;
  acc.Z = (2n * Y * Z) % P;
}

/** acc + (x, y), an affine point (madd-2007-bl, with Z₃ = 2·Z₁·H); doubles or cancels where they meet. */
function addAffine(acc: Jacobian, x: bigint, y: bigint): void {
  const { X, Y, Z } = acc;
  if (Z === 0n) {
    acc.X = x;
    acc.Y = y;
    acc.Z = 1n;
    return;
  }
  const ZZ = (Z * Z) % P;
  let H = (x * ZZ) % P;
  H = H >= X ? H - X : H - X + P;
  let R = (((y * Z) % P) * ZZ) % P;
  R = R >= Y ? R - Y : R - Y + P;
  if (H === 0n) {
    if (R === 0n) double(acc);
    else acc.Z = 0n;
    return;
  }
  const HH = (H * H) % P;
  const I = (4n * HH) % P;
  const J = (H * I) % P;
  const r = 2n * R;
  const V = (X * I) % P;
  const X3 = (((r * r - J - 2n * V) % P) + P) % P;
  acc.Y = (((r * (V - X3) - 2n * Y * J) % P) + P) % P;
  acc.X = X3;
  acc.Z = (2n * Z * H) % P;
}

/**
 * acc + scalar·point, from the point's multiples: each window's digit is taken in (−128, 128], a digit
 * above 128 borrowing from the next window, so that a negative digit adds a negated multiple.
 */
function addMultiple(acc: Jacobian, multiples: Multiples, scalar: bigint): void {
  const { xs, ys } = multiples;
  let rest = scalar;
  for (let window = 0; rest > 0n; window++) {
    let digit = Number(rest & WINDOW_MASK);
    rest >>= SHIFT;
    if (digit > HALF) {
      digit -= 2 * HALF;
      rest += 1n;
    }
    if (digit > 0) {
      const at = window * HALF + digit - 1;
      addAffine(acc, xs[at] as bigint, ys[at] as bigint);
    } else if (digit < 0) {
      const at = window * HALF - digit - 1;
      addAffine(acc, xs[at] as bigint, P - (ys[at] as bigint));
    }
  }
}

/** Bits per window of a key checked without its table: 15 multiples, built in about 15 additions. */
const SMALL_BITS = 4;
const SMALL_MASK = BigInt(2 ** SMALL_BITS - 1);

/** 1·point … 15·point, affine, at [k − 1]: what a check without the key's table adds. */
function smallMultiplesOf(point: CurvePoint): Multiples {
  const table = [point];
  for (let k = 2; k <= Number(SMALL_MASK); k++) table.push((table[k - 2] as CurvePoint).add(point));
  const affine = normalizeZ(Point, table);
  return { xs: affine.map((p) => p.X), ys: affine.map((p) => p.Y) };
}

/**
 * acc := scalar·point from its 15 small multiples, most significant window first: 4 doublings and at
 * most one addition a window. `acc` must start at infinity (it is doubled as it goes).
 */
function setSmallMultiple(acc: Jacobian, small: Multiples, scalar: bigint): void {
  const { xs, ys } = small;
  for (let shift = 256 - SMALL_BITS; shift >= 0; shift -= SMALL_BITS) {
    if (acc.Z !== 0n) for (let d = 0; d < SMALL_BITS; d++) double(acc);
    const digit = Number((scalar >> BigInt(shift)) & SMALL_MASK);
    if (digit > 0) addAffine(acc, xs[digit - 1] as bigint, ys[digit - 1] as bigint);
  }
}

/**
 * The inverse of `value` (not 0) modulo the prime `modulus`: the extended Euclidean algorithm, keeping
 * only the coefficient of `value` (about half the bigint operations of noble's `invert`, which keeps both).
 */
function inverse(value: bigint, modulus: bigint): bigint {
  let a = value % modulus;
  let b = modulus;
  let x = 0n;
  let u = 1n;
  while (a !== 0n) {
    const q = b / a;
    const rest = b - q * a;
    const next = x - u * q;
    b = a;
    a = rest;
    x = u;
    u = next;
  }
  return x < 0n ? x + modulus : x;
}

/** The inverses of `values` (none 0) modulo `modulus`, with one inversion for all (Montgomery's trick). */
function invertEach(values: bigint[], modulus: bigint): bigint[] {
  const prefix: bigint[] = [];
  let product = 1n;
  for (const v of values) {
    prefix.push(product);
    product = (product * v) % modulus;
  }
  let inv = values.length > 0 ? inverse(product, modulus) : 1n;
  const inverses: bigint[] = new Array(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    inverses[i] = (inv * (prefix[i] as bigint)) % modulus;
    inv = (inv * (values[i] as bigint)) % modulus;
  }
  return inverses;
}

let generatorMultiples: Multiples | undefined;
/**
 * Each key's table, kept for the keys checked most recently (docs/security.md, "Many keys make each
 * auction seconds of CPU"): a table is 4,224 points, about 0.5 MB (measured in Node) and about 40 ms to
 * build, so the cache holds at most KEY_TABLES of them, about 32 MB; a key past that evicts the one
 * checked longest ago, never the others.
 */
export const KEY_TABLES = 64;
const keyMultiples = new LruCache<string, Multiples>(KEY_TABLES);

/** A key's multiples to check against: its table (`small` false), or its 15 small multiples. */
interface KeyMultiples {
  multiples: Multiples;
  small: boolean;
}

/** The key's table, built and kept if `build`; else its kept table, or its small multiples when none is kept. */
function multiplesOfKey(publicKey: Hex, build: boolean): KeyMultiples {
  const cached = keyMultiples.get(publicKey);
  if (cached) return { multiples: cached, small: false };
  const point = Point.fromHex(publicKey.slice(2));
  if (!build) return { multiples: smallMultiplesOf(point), small: true };
  const multiples = multiplesOf(point);
  keyMultiples.set(publicKey, multiples);
  return { multiples, small: false };
}

/** Whether `publicKey`'s table is cached (for tests of the cache's bound). */
export function hasKeyTable(publicKey: Hex): boolean {
  return keyMultiples.has(publicKey);
}

const UNCOMPRESSED_KEY = /^0x04[0-9a-fA-F]{128}$/;

/** One signature to check: the 65-byte `signature` (r, s, v) over the 32-byte `hash`, by `publicKey` (0x04…). */
export interface SignedHash {
  hash: Hex;
  signature: Hex;
  publicKey: Hex;
}

/**
 * Whether each signature is by its key as the chain sees it: the signature meets the strict rule
 * (src/chains/evm/strict-signature.ts) and the point R it implies is the one ecrecover rebuilds from r
 * and v, so ecrecover yields this very key. ecrecover takes R's x to be r itself (never r + n) and its
 * y's parity from v: a signature whose R has x = r + n, or whose v names the other y, verifies in plain
 * ECDSA but recovers another key on chain. Checked together, the signatures share their two inversions
 * (s⁻¹ modulo the group's order, and Z⁻¹ of each R for its y's parity). With `buildTables` false, a key
 * whose table is not kept is checked without one (about three times a check with it, against the 40 ms
 * of building it), and none is built: checks that may name any number of keys cost no table each.
 */
export function verifyEachWithKey(signed: readonly SignedHash[], buildTables = true): boolean[] {
  const ok = signed.map(() => false);
  const checks: { at: number; r: bigint; s: bigint; yParity: 0 | 1; key: KeyMultiples; hash: bigint }[] = [];
  signed.forEach(({ hash, signature, publicKey }, at) => {
    const parts = strictSignature(signature);
    if (!parts || !UNCOMPRESSED_KEY.test(publicKey)) return;
    try {
      checks.push({ at, ...parts, key: multiplesOfKey(publicKey, buildTables), hash: BigInt(hash) });
    } catch {
      // Not a point on the curve: nothing verifies against it.
    }
  });
  if (checks.length === 0) return ok;
  generatorMultiples ??= multiplesOf(Point.BASE);
  const generator = generatorMultiples;
  const sInverses = invertEach(
    checks.map((c) => c.s),
    N,
  );
  // R = (h/s)·G + (r/s)·Q; its x = X/Z² must be r, checked as X = r·Z² without inverting Z.
  const found = checks.flatMap((c, i) => {
    const sInv = sInverses[i] as bigint;
    const R: Jacobian = { X: 0n, Y: 0n, Z: 0n };
    // Without a table the key's product is summed first, from infinity, as it doubles its sum.
    if (c.key.small) setSmallMultiple(R, c.key.multiples, (c.r * sInv) % N);
    addMultiple(R, generator, (c.hash * sInv) % N);
    if (!c.key.small) addMultiple(R, c.key.multiples, (c.r * sInv) % N);
    if (R.Z === 0n || R.X !== (((c.r * R.Z) % P) * R.Z) % P) return [];
    return [{ check: c, R }];
  });
  const zInverses = invertEach(
    found.map((f) => f.R.Z),
    P,
  );
  found.forEach(({ check, R }, i) => {
    const zInv = zInverses[i] as bigint;
    const y = (((R.Y * zInv) % P) * ((zInv * zInv) % P)) % P;
    ok[check.at] = (y & 1n) === BigInt(check.yParity);
  });
  return ok;
}

/** Whether the 65-byte `signature` over the 32-byte `hash` is by `publicKey` as the chain sees it (above). */
export function verifyWithKey(hash: Hex, signature: Hex, publicKey: Hex, buildTable = true): boolean {
  return verifyEachWithKey([{ hash, signature, publicKey }], buildTable)[0] === true;
}
