import type { SourceAdapter } from "./adapter";
import { currencyApi } from "./currency-api";
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
} satisfies Record<string, SourceAdapter>;

export type AdapterName = keyof typeof adapters;
export const adapterNames = Object.keys(adapters) as [AdapterName, ...AdapterName[]];

/** Daily reference rates stay the day's rate until the next publication, which can land hours late. */
const DAILY_MAX_AGE_SECONDS = 2 * 86_400;

/**
 * The public NGN/USD sources polled when the configuration names none: three markets that publish a
 * bid and an ask (an exchange order book, Luno's book, Remitano's P2P adverts) and two daily
 * reference rates.
 */
export const publicRateSources = [
  { name: "quidax", adapter: "quidax", url: "https://app.quidax.io/api/v1/markets/tickers/usdtngn" },
  { name: "luno", adapter: "luno", url: "https://api.luno.com/api/1/ticker?pair=USDCNGN" },
  { name: "remitano", adapter: "remitano", url: "https://api.remitano.com/api/v1/rates/ads" },
  {
    name: "open-er-api",
    adapter: "open-er-api",
    url: "https://open.er-api.com/v6/latest/USD",
    maxAgeSeconds: DAILY_MAX_AGE_SECONDS,
  },
  {
    name: "currency-api",
    adapter: "currency-api",
    url: "https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/usd.json",
    maxAgeSeconds: DAILY_MAX_AGE_SECONDS,
  },
] as const satisfies readonly { name: string; adapter: AdapterName; url: string; maxAgeSeconds?: number }[];
