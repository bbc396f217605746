import type { Band } from "../schemas";

/** How far above the market a limit may ask and still be auctioned (docs/limit-orders.md, "The keeper's job"). */
export const LIMIT_WINDOW_BPS = 150n;
/** Band rates are floats; they enter bigint maths with 8 decimals, as in the band guard. */
const RATE_SCALE = 100_000_000n;

/** A limit order's terms as the window needs them: what it sells and the output it asks for (base units). */
export interface LimitAsk {
  sellAmount: bigint;
  limitAmount: bigint;
  /** The band assets its tokens track (e.g. cNGN → NGN, USDC → USD); null when the band does not price one. */
  sellAsset: string | null;
  buyAsset: string | null;
  sellDecimals: number;
  buyDecimals: number;
}

/**
 * What the band's mid implies the sale is worth, in buy-token base units (rounded down), or null when the
 * band does not price this pair.
 */
export function midOutput(band: Band, ask: LimitAsk): bigint | null {
  if (!(band.mid > 0) || !Number.isFinite(band.mid)) return null;
  const mid = BigInt(Math.round(band.mid * Number(RATE_SCALE)));
  if (mid <= 0n) return null;
  const num = ask.sellAmount * 10n ** BigInt(ask.buyDecimals);
  const den = 10n ** BigInt(ask.sellDecimals);
  if (ask.sellAsset === band.base && ask.buyAsset === band.quote) return (num * mid) / (den * RATE_SCALE);
  if (ask.sellAsset === band.quote && ask.buyAsset === band.base) return (num * RATE_SCALE) / (den * mid);
  return null;
}

/**
 * Whether a limit order is near enough the market to be auctioned now: a band prices its pair and the
 * limit asks at most 150 bps more than the mid implies (`limitAmount ≤ midOutput × 1.015`). A limit at
 * or under the market is always in: a resolver may well meet it.
 */
export function withinWindow(band: Band | null, ask: LimitAsk): boolean {
  if (!band) return false;
  const mid = midOutput(band, ask);
  return mid !== null && ask.limitAmount * 10_000n <= mid * (10_000n + LIMIT_WINDOW_BPS);
}
