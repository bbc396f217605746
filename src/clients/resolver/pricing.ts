import type { InventoryEntry } from "../../protocol/node-frames";
import type { Band } from "../../schemas/quote";

/**
 * Pricing for the reference resolver. Amounts are bigints in base units throughout; rates are exact
 * rationals, so a quote never carries binary floating-point error into an amount.
 */

/** A non-negative rate `num / den`. */
export interface Rational {
  num: bigint;
  den: bigint;
}

export interface TokenInfo {
  symbol: string;
  address: string;
  decimals: number;
  /** The least a part of a sale of it may sell (docs/legs.md); null or absent: any. */
  minLegSellAmount?: string | null;
}

export interface PriceRequest {
  chainId: number;
  sellToken: TokenInfo;
  buyToken: TokenInfo;
  sellAmount: bigint;
  /** The rfq's band, else the latest band the corridor sent; null when the oracle has none. */
  band: Band | null;
}

export type PriceDecision = { outputAmount: bigint } | { decline: string };

export type Pricer = (request: PriceRequest) => PriceDecision | Promise<PriceDecision>;

const BPS = 10_000n;
const DECIMAL_TEXT = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/** `"0.000633"` → 633/1000000, exactly. Plain decimal notation only: no sign, no exponent. */
export function parseDecimal(text: string): Rational {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal number: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? "";
  return { num: BigInt(`${match[1]}${fraction}`), den: 10n ** BigInt(fraction.length) };
}

/** Eight decimal places: a millionth of a kobo at naira-per-dollar magnitudes, far below any spread. */
export const FLOAT_SCALE = 100_000_000n;

/**
 * A float from the oracle as a rational: scaled by 1e8 and rounded to the nearest integer. Rounding
 * (rather than truncating) absorbs the representation error of values like 1.005, whose product
 * with 1e8 is 100499999.99999999, and the scaled value stays a safe integer for any rate below 9e7.
 */
export function rationalFromFloat(value: number, scale: bigint = FLOAT_SCALE): Rational {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`not a positive rate: ${value}`);
  const scaled = Math.round(value * Number(scale));
  if (!Number.isSafeInteger(scaled) || scaled === 0) throw new RangeError(`rate ${value} does not fit ${scale}ths`);
  return { num: BigInt(scaled), den: scale };
}

export function invert(rate: Rational): Rational {
  if (rate.num === 0n) throw new RangeError("cannot invert a zero rate");
  return { num: rate.den, den: rate.num };
}

/**
 * `sellAmount` (base units) at `rate` buy-token per sell-token in human units, less `spreadBps`, in
 * base units of the buy token. One division at the very end, rounding down: the resolver never
 * promises more than the rate gives.
 */
export function convert(
  sellAmount: bigint,
  rate: Rational,
  sellDecimals: number,
  buyDecimals: number,
  spreadBps = 0,
): bigint {
  const shift = BigInt(buyDecimals - sellDecimals);
  const up = shift > 0n ? 10n ** shift : 1n;
  const down = shift < 0n ? 10n ** -shift : 1n;
  return (sellAmount * rate.num * (BPS - BigInt(spreadBps)) * up) / (rate.den * BPS * down);
}

const sameSymbol = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** EVM addresses compare case-insensitively, Solana's base58 keys exactly. */
export const sameToken = (a: string, b: string) =>
  a.startsWith("0x") && b.startsWith("0x") ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * A fixed rate in buy-token per sell-token (human units). With `sellSymbol`, the rate is for selling
 * that token and its reciprocal prices the other direction, so one figure serves both sides of a
 * corridor; pairs without that token are declined. Without it, every rfq gets the rate as given.
 */
export function fixedRatePricer(options: { rate: Rational; sellSymbol?: string | null }): Pricer {
  const { rate, sellSymbol } = options;
  if (rate.num <= 0n || rate.den <= 0n) throw new RangeError("the fixed rate must be positive");
  return ({ sellToken, buyToken, sellAmount }) => {
    let applied = rate;
    if (sellSymbol) {
      if (sameSymbol(buyToken.symbol, sellSymbol)) applied = invert(rate);
      else if (!sameSymbol(sellToken.symbol, sellSymbol)) return { decline: "unpriced_pair" };
    }
    return { outputAmount: convert(sellAmount, applied, sellToken.decimals, buyToken.decimals) };
  };
}

export type BandSide = "base" | "quote";

/**
 * Which side of the band a token stands for. `overrides` (symbol → side) wins; otherwise a token whose
 * symbol contains the band's asset code, case-insensitively, is that asset: USDC and USDT are USD,
 * cNGN is NGN. A symbol matching both codes, or neither, has no side.
 */
export function bandSide(symbol: string, band: Band, overrides: Record<string, BandSide> = {}): BandSide | null {
  const override = Object.entries(overrides).find(([s]) => sameSymbol(s, symbol));
  if (override) return override[1];
  const upper = symbol.toUpperCase();
  const isBase = upper.includes(band.base.toUpperCase());
  const isQuote = upper.includes(band.quote.toUpperCase());
  if (isBase === isQuote) return null;
  return isBase ? "base" : "quote";
}

/**
 * `spreadBps` below the band's mid. The band is `quote` per `base` (naira per dollar): selling the base
 * asset yields `mid` of the quote asset per unit, selling the quote asset yields `1 / mid` of the base.
 * Declines with `no_band` when the oracle has no band and `unpriced_pair` when the tokens are not one
 * of each side.
 */
export function bandSpreadPricer(options: { spreadBps: number; sides?: Record<string, BandSide> }): Pricer {
  const { spreadBps, sides = {} } = options;
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps >= 10_000) {
    throw new RangeError("the spread must be a whole number of bps from 0 to 9999");
  }
  return ({ sellToken, buyToken, sellAmount, band }) => {
    if (!band) return { decline: "no_band" };
    const sellSide = bandSide(sellToken.symbol, band, sides);
    const buySide = bandSide(buyToken.symbol, band, sides);
    if (!sellSide || !buySide || sellSide === buySide) return { decline: "unpriced_pair" };
    let mid: Rational;
    try {
      mid = rationalFromFloat(band.mid);
    } catch {
      return { decline: "bad_band" };
    }
    const rate = sellSide === "base" ? mid : invert(mid);
    return { outputAmount: convert(sellAmount, rate, sellToken.decimals, buyToken.decimals, spreadBps) };
  };
}

/**
 * What a resolver can deliver of `token`: the lesser of its balance and the executor's allowance, since
 * a settlement needs both. Zero when the inventory does not list the token.
 */
export function availableInventory(inventory: readonly InventoryEntry[], chainId: number, token: string): bigint {
  const entry = inventory.find((i) => i.chainId === chainId && sameToken(i.token, token));
  if (!entry) return 0n;
  const balance = BigInt(entry.balance);
  const allowance = BigInt(entry.allowance);
  return balance < allowance ? balance : allowance;
}
