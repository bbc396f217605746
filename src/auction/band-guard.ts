import type { Band } from "../schemas";

/** Band rates are floats (naira per dollar); they enter bigint maths as a rational with 8 decimals. */
const RATE_SCALE = 100_000_000n;
/** A band older than this steers nothing, and quotes carry `band: null` (docs/api.md "Ranking and steering"). */
export const BAND_FRESH_MS = 60_000;

/** The band if it is fresh at `now`, else null. */
export function freshBand(band: Band | null, now: number): Band | null {
  return band && now - band.at <= BAND_FRESH_MS ? band : null;
}

/** The outputs a bid may offer and still win: outside them, steering shows it as `outside_band`. */
export interface OutputBounds {
  min: bigint;
  max: bigint;
}

const scaled = (rate: number): bigint | null => {
  if (!(rate > 0) || !Number.isFinite(rate)) return null;
  const r = BigInt(Math.round(rate * Number(RATE_SCALE)));
  return r > 0n ? r : null;
};

/**
 * The outputs a sale may be quoted within: a bid whose implied rate is more than `bandGuardBps` below the
 * band's `low` or above its `high` is out (too good to be true is as suspect as too bad). `sellAsset` and
 * `buyAsset` are the band assets the two tokens track (e.g. USDC → USD, cNGN → NGN); null when the band
 * does not price this pair, or there is no band.
 */
export function outputBounds(args: {
  band: Band | null;
  sellAsset: string | null;
  buyAsset: string | null;
  sellAmount: bigint;
  sellDecimals: number;
  buyDecimals: number;
  bandGuardBps: number;
}): OutputBounds | null {
  const { band, sellAmount, bandGuardBps } = args;
  if (!band) return null;
  const [low, high] = [scaled(band.low), scaled(band.high)];
  if (low === null || high === null) return null;
  const below = BigInt(10_000 - bandGuardBps);
  const above = BigInt(10_000 + bandGuardBps);
  // Output in buy-token units per unit of rate: sellAmount × 10^buyDecimals / 10^sellDecimals.
  const num = sellAmount * 10n ** BigInt(args.buyDecimals);
  const den = 10n ** BigInt(args.sellDecimals);
  if (args.sellAsset === band.base && args.buyAsset === band.quote) {
    // Selling the base: output = amount × rate, so the lowest rate bounds the output from below.
    return {
      min: (num * low * below) / (den * RATE_SCALE * 10_000n),
      max: ceilDiv(num * high * above, den * RATE_SCALE * 10_000n),
    };
  }
  if (args.sellAsset === band.quote && args.buyAsset === band.base) {
    // Selling the quote asset: output = amount ÷ rate, so the highest rate bounds the output from below.
    return {
      min: (num * RATE_SCALE * 10_000n) / (den * high * above),
      max: ceilDiv(num * RATE_SCALE * 10_000n, den * low * below),
    };
  }
  return null;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
