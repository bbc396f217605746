/**
 * The gas fee a quote charges, priced from the chain (docs/api.md, "The gas fee"): what the keeper will
 * spend in the chain's native units, converted into the charged token at the oracle's native price and
 * rounded up to its base unit. Bigints throughout; the only float is the band's rate, turned into a
 * fraction once (`rateFraction`).
 */

/** Inputs older than this are not used: the quote falls back to `gasFee.fixed` (docs/api.md, "The gas fee"). */
export const MAX_INPUT_AGE_MS = 60_000;

export type GasFeeSource = "priced" | "fallback";

export interface ChargedGasFee {
  amount: bigint;
  source: GasFeeSource;
}

/** A band rate as an exact fraction of its decimal spelling, to 12 significant digits. */
export function rateFraction(rate: number): { num: bigint; den: bigint } {
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`not a positive rate: ${rate}`);
  const [digits = "", exponent = "0"] = rate.toPrecision(12).split("e");
  const [whole = "", fraction = ""] = digits.split(".");
  const scale = fraction.length - Number(exponent);
  const num = BigInt(whole + fraction);
  return scale >= 0 ? { num, den: 10n ** BigInt(scale) } : { num: num * 10n ** BigInt(-scale), den: 1n };
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * `nativeCost` (wei, lamports) in base units of a token, rounded up, at `rate` whole tokens per whole
 * native unit (e.g. 3000.5 USDC per ETH).
 */
export function nativeToToken(nativeCost: bigint, rate: number, nativeDecimals: number, tokenDecimals: number): bigint {
  const { num, den } = rateFraction(rate);
  return ceilDiv(nativeCost * num * 10n ** BigInt(tokenDecimals), den * 10n ** BigInt(nativeDecimals));
}

/**
 * `amount` base units of a token in the chain's native base units (wei, lamports), rounded down, at
 * `rate` whole tokens per whole native unit: the inverse of `nativeToToken`, for the keeper's books
 * (docs/settlement.md, "The keeper's books").
 */
export function tokenToNative(amount: bigint, rate: number, nativeDecimals: number, tokenDecimals: number): bigint {
  const { num, den } = rateFraction(rate);
  return (amount * den * 10n ** BigInt(nativeDecimals)) / (num * 10n ** BigInt(tokenDecimals));
}

/** The median of some gas figures, rounded up; null for none. */
export function medianOf(values: readonly bigint[]): bigint | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as bigint;
  return sorted.length % 2 === 1 ? upper : ceilDiv((sorted[mid - 1] as bigint) + upper, 2n);
}

/**
 * What two fills of one kind may differ by in calldata alone: EVM charges 16 gas for a nonzero calldata byte
 * and 4 for a zero one, and two fills' amounts, addresses and nonces differ in which of their bytes are zero.
 * Two words' worth (64 bytes, 12 gas each) covers the spread seen between fills of one kind on anvil (one or
 * two bytes) with room (docs/settlement.md, "The gas of each kind of fill").
 */
export const CALLDATA_SPREAD_GAS = 64n * 12n;

/**
 * The gas a fill is priced at from its kind's recent fills: their median and the calldata spread, so that a
 * fill a byte or two dearer than the median does not cost the keeper more than it charged; null for none.
 */
export function fillGasOf(recent: readonly bigint[]): bigint | null {
  const median = medianOf(recent);
  return median === null ? null : median + CALLDATA_SPREAD_GAS;
}

/** What pricing needs, each input with the time it was read (unix ms); null where it is missing. */
export interface PricingInputs {
  /** The fill's cost in native units, and when its chain inputs were read. */
  cost: { native: bigint; at: number } | null;
  /** Whole charged tokens per whole native unit, and when the oracle made the band. */
  price: { rate: number; at: number } | null;
  nativeDecimals: number;
  tokenDecimals: number;
}

/** The fee a quote charges now: priced when every input is there and under 60 s old, else `fallback`. */
export function chargedGasFee(inputs: PricingInputs, fallback: bigint, now: number): ChargedGasFee {
  const { cost, price } = inputs;
  const fresh = (at: number) => now - at <= MAX_INPUT_AGE_MS;
  if (!cost || !price || !fresh(cost.at) || !fresh(price.at)) return { amount: fallback, source: "fallback" };
  const amount = nativeToToken(cost.native, price.rate, inputs.nativeDecimals, inputs.tokenDecimals);
  return { amount, source: "priced" };
}
