import type { BandValue } from "../schemas/quote";

/** Band mids are floats (naira per dollar); they enter bigint maths as a rational with 8 decimals. */
const MID_SCALE = 100_000_000n;

/**
 * The least output a bid may offer before steering calls it `outside_band`: the output the band's mid
 * implies for this sale, less `bandGuardBps`. `sellAsset`/`buyAsset` are the band assets the two tokens
 * track (e.g. USDC → USD, cNGN → NGN); null when the band does not price this pair.
 */
export function minOutputFromBand(args: {
  band: BandValue | null;
  sellAsset: string | null;
  buyAsset: string | null;
  sellAmount: bigint;
  sellDecimals: number;
  buyDecimals: number;
  bandGuardBps: number;
}): bigint | null {
  const { band } = args;
  if (!band || !(band.mid > 0) || !Number.isFinite(band.mid)) return null;
  const mid = BigInt(Math.round(band.mid * Number(MID_SCALE)));
  if (mid === 0n) return null;
  // implied = sellAmount × price × 10^buyDecimals / 10^sellDecimals, price = mid or 1/mid.
  let num = args.sellAmount * 10n ** BigInt(args.buyDecimals);
  let den = 10n ** BigInt(args.sellDecimals);
  if (args.sellAsset === band.base && args.buyAsset === band.quote) {
    num *= mid;
    den *= MID_SCALE;
  } else if (args.sellAsset === band.quote && args.buyAsset === band.base) {
    num *= MID_SCALE;
    den *= mid;
  } else {
    return null;
  }
  const implied = num / den;
  return (implied * BigInt(10_000 - args.bandGuardBps)) / 10_000n;
}
