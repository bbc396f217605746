import type { SourceAdapter } from "./adapter";
import { bitstamp } from "./bitstamp";
import { coinbase } from "./coinbase";
import { currencyApi } from "./currency-api";
import { kraken } from "./kraken";
import { luno } from "./luno";
import { openErApi } from "./open-er-api";
import { quidax } from "./quidax";
import { remitano } from "./remitano";

/** Every response format the oracle reads, by the name configuration uses (`oracle.sources[].adapter`). */
export const adapters = {
  quidax,
  luno,
  remitano,
  "open-er-api": openErApi,
  "currency-api": currencyApi,
  coinbase,
  kraken,
  bitstamp,
} satisfies Record<string, SourceAdapter>;

export type AdapterName = keyof typeof adapters;
export const adapterNames = Object.keys(adapters) as [AdapterName, ...AdapterName[]];

/**
 * The public NGN/USD sources polled when the configuration names none: three markets that publish a
 * bid and an ask (an exchange order book, Luno's book, Remitano's P2P adverts) and two daily
 * reference rates, whose formats carry their two-day age limit (`DAILY_MAX_AGE_SECONDS`).
 */
export const publicRateSources = [
  { name: "quidax", adapter: "quidax", url: "https://app.quidax.io/api/v1/markets/tickers/usdtngn" },
  { name: "luno", adapter: "luno", url: "https://api.luno.com/api/1/ticker?pair=USDCNGN" },
  { name: "remitano", adapter: "remitano", url: "https://api.remitano.com/api/v1/rates/ads" },
  { name: "open-er-api", adapter: "open-er-api", url: "https://open.er-api.com/v6/latest/USD" },
  {
    name: "currency-api",
    adapter: "currency-api",
    url: "https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/usd.json",
  },
] as const satisfies readonly { name: string; adapter: AdapterName; url: string }[];

/** One exchange's public endpoint for a native token's dollar price, per native asset it lists. */
const nativeEndpoints = {
  coinbase: {
    ETH: "https://api.coinbase.com/v2/prices/ETH-USD/spot",
    SOL: "https://api.coinbase.com/v2/prices/SOL-USD/spot",
  },
  kraken: {
    ETH: "https://api.kraken.com/0/public/Ticker?pair=XETHZUSD",
    SOL: "https://api.kraken.com/0/public/Ticker?pair=SOLUSD",
  },
  bitstamp: {
    ETH: "https://www.bitstamp.net/api/v2/ticker/ethusd/",
    SOL: "https://www.bitstamp.net/api/v2/ticker/solusd/",
  },
} as const satisfies Partial<Record<AdapterName, Record<string, string>>>;

export type NativeAsset = keyof (typeof nativeEndpoints)["coinbase"];

/**
 * The public, keyless sources of a native token's price in dollars (docs/oracle.md, "Native prices"):
 * Coinbase's spot price and the Kraken and Bitstamp order books, named `<adapter>-<asset>`. They are
 * live markets, so the oracle's 60 s age limit applies as it is.
 */
export function publicNativeSources(asset: NativeAsset) {
  return (Object.keys(nativeEndpoints) as (keyof typeof nativeEndpoints)[]).map((adapter) => ({
    name: `${adapter}-${asset.toLowerCase()}`,
    adapter,
    url: nativeEndpoints[adapter][asset],
    base: asset,
    quote: "USD",
  }));
}
