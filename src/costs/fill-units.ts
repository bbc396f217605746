/**
 * The gas a fill is priced at, by how it will be sent (docs/settlement.md, "The gas of each kind of fill"):
 * plain, or carrying the taker's EIP-2612 permit, which the contract applies first; and, for a swap filled
 * by several makers, one more leg's gas per maker past the first. Pure: the medians come from the chain's
 * settled fills (src/costs/corridor-costs.ts).
 */

/**
 * The gas one more leg adds to a fill (docs/legs.md, "What a leg costs"): its resolver's signature, its fee,
 * its two transfers and its event. Measured on anvil by test/contracts/rfq-executor-legs.test.ts, which holds
 * every step from one to four legs within 1,500 gas under it: 38,964 to 39,605 over two runs, rounded up for
 * the signatures' calldata, which varies (docs/settlement.md, "The gas of each kind of fill").
 */
export const LEG_GAS = 40_000n;

/** How a fill will be sent, as far as its gas goes. */
export interface FillShape {
  /** Whether it carries the taker's EIP-2612 permit; null when that is not known yet (priced as if it did). */
  permit: boolean | null;
  /** The makers whose legs it fills (docs/legs.md). */
  legs: number;
}

/** The gas of a one-leg fill of each kind, as measured (the median of recent fills) or seeded. */
export interface KindUnits {
  plain: bigint;
  permit: bigint;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Each kind's gas: the median of its recent fills; before any, a plain fill's seed and a permit fill's as
 * the plain one's and `permitSeed`, the gas the permit adds (`gasFee.units.permit`).
 */
export function kindUnits(
  medians: { plain: bigint | null; permit: bigint | null },
  seeds: { plain: bigint; permit: bigint },
): KindUnits {
  const plain = medians.plain ?? seeds.plain;
  return { plain, permit: medians.permit ?? plain + seeds.permit };
}

/**
 * The gas a fill of `shape` is priced at. A fill known to go plain is priced as a plain one; one that
 * carries a permit, or may (not known yet), as the dearer of the two kinds, so the keeper never charges
 * a plain fill's gas for a fill that applies a permit (and a permit fill is never priced under a plain one,
 * whatever the two medians' samples). Each leg past the first adds `LEG_GAS`.
 */
export function fillUnits(units: KindUnits, shape: FillShape): bigint {
  const base = shape.permit === false ? units.plain : max(units.plain, units.permit);
  const extraLegs = BigInt(Math.max(shape.legs, 1) - 1);
  return base + extraLegs * LEG_GAS;
}
