import type { Band } from "../schemas";
import { type AssetPair, pairKey } from "./types";

/**
 * The price of a chain's native token in each of its tokens (docs/oracle.md, "Native prices"), crossed
 * from the oracle's bands: the direct band (ETH/USD for a USD token), or two bands through one
 * intermediate asset (ETH/USD × USD/NGN for an NGN token), either read the other way round where needed
 * (1 / mid). Pure: the bands are one snapshot's.
 */

export interface NativePrices {
  chainId: number;
  /** The chain's native asset, e.g. ETH. */
  asset: string;
  /** One per token of the chain whose asset the bands reach; `at` is the oldest band used (unix ms). */
  tokens: { token: string; rate: number; at: number }[];
}

/** A token of a chain and the band asset it tracks (src/oracle/band-corridors.ts, `chainTokenAssets`). */
export interface TokenAsset {
  token: string;
  asset: string;
}

/** One step of a cross: a pair read base → quote (× mid), or `inverted`, quote → base (÷ mid). */
export interface Leg {
  pair: AssetPair;
  inverted: boolean;
}

/** The pair that links `from` and `to`, read forwards when the pair is `from/to`; null when none does. */
function legBetween(from: string, to: string, pairs: readonly AssetPair[]): Leg | null {
  const forward = pairs.find((p) => p.base === from && p.quote === to);
  if (forward) return { pair: forward, inverted: false };
  const backward = pairs.find((p) => p.base === to && p.quote === from);
  return backward ? { pair: backward, inverted: true } : null;
}

/**
 * How to price `from` in `to` with `pairs`: no leg for the same asset, the direct pair if there is one,
 * else the first intermediate asset (in the pairs' order) linked to both; null when neither reaches.
 */
export function routeBetween(from: string, to: string, pairs: readonly AssetPair[]): Leg[] | null {
  if (from === to) return [];
  const direct = legBetween(from, to, pairs);
  if (direct) return [direct];
  const assets = [...new Set(pairs.flatMap((p) => [p.base, p.quote]))];
  for (const via of assets) {
    if (via === from || via === to) continue;
    const first = legBetween(from, via, pairs);
    const second = first && legBetween(via, to, pairs);
    if (first && second) return [first, second];
  }
  return null;
}

/** Twelve significant digits: what a product of rounded mids can claim, without the float noise. */
const significant = (x: number): number => Number(x.toPrecision(12));

/** `to` units per one `from` unit along `route`, and the oldest band's time; null when a band is missing. */
function crossRate(route: readonly Leg[], bands: Readonly<Record<string, Band>>): { rate: number; at: number } | null {
  let rate = 1;
  let at = Number.POSITIVE_INFINITY;
  for (const leg of route) {
    const band = bands[pairKey(leg.pair)];
    if (!band || !(band.mid > 0)) return null;
    rate = leg.inverted ? rate / band.mid : rate * band.mid;
    at = Math.min(at, band.at);
  }
  return { rate: significant(rate), at };
}

/**
 * Whole tokens per whole native unit for each token whose asset the bands reach, in the tokens' order;
 * a token whose asset no band (or pair of bands) reaches is left out. A token that tracks the native
 * asset itself is priced 1, dated `snapshotAt`, the time of the round the bands come from.
 */
export function nativePrices(
  native: { chainId: number; asset: string },
  tokens: readonly TokenAsset[],
  bands: Readonly<Record<string, Band>>,
  snapshotAt: number,
): NativePrices {
  const pairs = Object.values(bands);
  const priced: NativePrices["tokens"] = [];
  for (const t of tokens) {
    const route = routeBetween(native.asset, t.asset, pairs);
    const cross = route && crossRate(route, bands);
    if (!cross) continue;
    priced.push({ token: t.token, rate: cross.rate, at: route.length === 0 ? snapshotAt : cross.at });
  }
  return { chainId: native.chainId, asset: native.asset, tokens: priced };
}

/** The pair keys of the bands `nativePrices` would use for these tokens, each once, in the order first used. */
export function bandsUsed(
  asset: string,
  tokens: readonly TokenAsset[],
  bands: Readonly<Record<string, Band>>,
): string[] {
  const pairs = Object.values(bands);
  const keys = tokens.flatMap((t) => (routeBetween(asset, t.asset, pairs) ?? []).map((leg) => pairKey(leg.pair)));
  return [...new Set(keys)];
}
