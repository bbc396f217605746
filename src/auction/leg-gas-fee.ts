/**
 * The gas fee of a fill of several legs (docs/legs.md, "What a leg costs"), in the buy token's base units:
 * a part the swap pays once (the transaction, the taker's signature and transfer, the keeper's accounts)
 * and a part each leg adds (its resolver's signature check and transfers). One leg costs exactly what
 * the priced gas fee of one fill says today (src/costs/gas-fee.ts).
 */
export interface LegGasFee {
  perSwap: bigint;
  perLeg: bigint;
}

/** The gas fee of `legs` legs: the swap's part once, the leg's part each time. */
export function gasFeeOfLegs(model: LegGasFee, legs: number): bigint {
  return model.perSwap + BigInt(legs) * model.perLeg;
}

/**
 * The model from the priced gas fee of a one-leg fill and how the chain's cost of one fill divides, in any
 * one additive measure of it (gas on EVM, lamports on Solana): `swap` spent once, `leg` spent per leg. The
 * leg's part is rounded up, the swap's is the rest, so one leg costs `oneLeg` to the base unit and each
 * further leg never less than its share.
 */
export function legGasFee(oneLeg: bigint, units: { swap: bigint; leg: bigint }): LegGasFee {
  const { swap, leg } = units;
  if (oneLeg < 0n || swap < 0n || leg < 0n || swap + leg === 0n) {
    throw new RangeError("a fill's cost and its parts must be non-negative, and not both parts 0");
  }
  const total = swap + leg;
  const perLeg = (oneLeg * leg + total - 1n) / total;
  return { perSwap: oneLeg - perLeg, perLeg };
}
