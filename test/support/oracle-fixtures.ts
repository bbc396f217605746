import type { AdapterName } from "../../src/oracle/sources";
import type { AssetPair } from "../../src/oracle/types";
import bitstamp from "../fixtures/oracle/bitstamp.json";
import bitstampSol from "../fixtures/oracle/bitstamp.sol.json";
import coinbaseError from "../fixtures/oracle/coinbase.error.json";
import coinbase from "../fixtures/oracle/coinbase.json";
import coinbaseSol from "../fixtures/oracle/coinbase.sol.json";
import currencyApi from "../fixtures/oracle/currency-api.json";
import krakenError from "../fixtures/oracle/kraken.error.json";
import kraken from "../fixtures/oracle/kraken.json";
import krakenSol from "../fixtures/oracle/kraken.sol.json";
import lunoError from "../fixtures/oracle/luno.error.json";
import luno from "../fixtures/oracle/luno.json";
import openErApiError from "../fixtures/oracle/open-er-api.error.json";
import openErApi from "../fixtures/oracle/open-er-api.json";
import quidaxError from "../fixtures/oracle/quidax.error.json";
import quidax from "../fixtures/oracle/quidax.json";
import remitano from "../fixtures/oracle/remitano.json";

/**
 * Sample responses of the public sources, in their documented formats (trimmed to a few currencies),
 * and ways to re-date them: a recorded body is always old, so a test that wants a fresh figure
 * republishes it at the current time. The NGN sources price USD/NGN; the native ones ETH/USD here, and
 * SOL/USD in `recordedSol`.
 */
export const recorded = {
  quidax,
  luno,
  remitano,
  "open-er-api": openErApi,
  "currency-api": currencyApi,
  coinbase,
  kraken,
  bitstamp,
} satisfies Record<AdapterName, unknown>;

/** The adapters of the native tokens' dollar prices (src/oracle/sources/index.ts, `publicNativeSources`). */
export type NativeAdapter = "coinbase" | "kraken" | "bitstamp";
export const nativeAdapters: NativeAdapter[] = ["coinbase", "kraken", "bitstamp"];

/** The same three sources answering for SOL/USD. */
export const recordedSol = { coinbase: coinbaseSol, kraken: krakenSol, bitstamp: bitstampSol } satisfies Record<
  NativeAdapter,
  unknown
>;

const USD_NGN: AssetPair = { base: "USD", quote: "NGN" };
const ETH_USD: AssetPair = { base: "ETH", quote: "USD" };

/** The pair each recording of `recorded` prices. */
export const recordedPairs: Record<AdapterName, AssetPair> = {
  quidax: USD_NGN,
  luno: USD_NGN,
  remitano: USD_NGN,
  "open-er-api": USD_NGN,
  "currency-api": USD_NGN,
  coinbase: ETH_USD,
  kraken: ETH_USD,
  bitstamp: ETH_USD,
};

/** What the sources answer when they refuse a request, with status 200 or not. */
export const recordedErrors = {
  quidax: quidaxError,
  luno: lunoError,
  "open-er-api": openErApiError,
  coinbase: coinbaseError,
  kraken: krakenError,
};

/** The figure each recorded response stands for: bid/ask where published, and the value the oracle takes. */
export const recordedRates: Record<AdapterName, { bid: number | null; ask: number | null; value: number }> = {
  quidax: twoSided(Number(quidax.data.ticker.buy), Number(quidax.data.ticker.sell)),
  luno: twoSided(Number(luno.bid), Number(luno.ask)),
  // The recording has `usdt_bid` above `usdt_ask` (see the adapter).
  remitano: twoSided(remitano.ng.usdt_ask, remitano.ng.usdt_bid),
  "open-er-api": { bid: null, ask: null, value: openErApi.rates.NGN },
  "currency-api": { bid: null, ask: null, value: currencyApi.usd.ngn },
  coinbase: { bid: null, ask: null, value: Number(coinbase.data.amount) },
  kraken: twoSided(Number(kraken.result.XETHZUSD.b[0]), Number(kraken.result.XETHZUSD.a[0])),
  bitstamp: twoSided(Number(bitstamp.bid), Number(bitstamp.ask)),
};

/** The SOL/USD figure each of `recordedSol` stands for. */
export const recordedSolRates: Record<NativeAdapter, { bid: number | null; ask: number | null; value: number }> = {
  coinbase: { bid: null, ask: null, value: Number(coinbaseSol.data.amount) },
  kraken: twoSided(Number(krakenSol.result.SOLUSD.b[0]), Number(krakenSol.result.SOLUSD.a[0])),
  bitstamp: twoSided(Number(bitstampSol.bid), Number(bitstampSol.ask)),
};

function twoSided(bid: number, ask: number) {
  return { bid, ask, value: Math.round(((bid + ask) / 2) * 1e6) / 1e6 };
}

/** Adapters whose responses carry their own time; the others cannot be stale. */
export const dated: AdapterName[] = ["quidax", "luno", "open-er-api", "currency-api", "bitstamp"];

const scaled = (x: string, scale: number) => String(Number(x) * scale);

/**
 * The recorded response as if the source had published it at `at` (unix ms), its prices times `scale`;
 * `sol` picks a native adapter's SOL/USD recording rather than its ETH/USD one.
 */
export function republish(adapter: AdapterName, at: number, scale = 1, sol = false): unknown {
  switch (adapter) {
    case "quidax": {
      const body = structuredClone(quidax);
      body.data.at = Math.floor(at / 1000);
      body.data.ticker.buy = scaled(body.data.ticker.buy, scale);
      body.data.ticker.sell = scaled(body.data.ticker.sell, scale);
      return body;
    }
    case "luno": {
      const body = structuredClone(luno);
      body.timestamp = at;
      body.bid = scaled(body.bid, scale);
      body.ask = scaled(body.ask, scale);
      return body;
    }
    case "remitano": {
      const body = structuredClone(remitano);
      body.ng.usdt_bid *= scale;
      body.ng.usdt_ask *= scale;
      return body;
    }
    case "open-er-api": {
      const body = structuredClone(openErApi);
      body.time_last_update_unix = Math.floor(at / 1000);
      body.time_last_update_utc = new Date(at).toUTCString();
      body.time_next_update_unix = body.time_last_update_unix + 86_400;
      body.time_next_update_utc = new Date(at + 86_400_000).toUTCString();
      body.rates.NGN *= scale;
      return body;
    }
    case "currency-api": {
      const body = structuredClone(currencyApi);
      body.date = new Date(at).toISOString().slice(0, 10);
      body.usd.ngn *= scale;
      return body;
    }
    case "coinbase": {
      const body = structuredClone(sol ? coinbaseSol : coinbase);
      body.data.amount = scaled(body.data.amount, scale);
      return body;
    }
    case "kraken": {
      const body: { error: string[]; result: Record<string, { a: string[]; b: string[] }> } = structuredClone(
        sol ? krakenSol : kraken,
      );
      for (const ticker of Object.values(body.result)) {
        ticker.a[0] = scaled(ticker.a[0] ?? "", scale);
        ticker.b[0] = scaled(ticker.b[0] ?? "", scale);
      }
      return body;
    }
    case "bitstamp": {
      const body = structuredClone(sol ? bitstampSol : bitstamp);
      body.timestamp = String(Math.floor(at / 1000));
      body.bid = scaled(body.bid, scale);
      body.ask = scaled(body.ask, scale);
      return body;
    }
  }
}

/** A publication time old enough to be stale for the adapter's default limits (60 s, or two days for daily rates). */
export function staleAt(adapter: AdapterName, now: number): number {
  return adapter === "open-er-api" || adapter === "currency-api" ? now - 5 * 86_400_000 : now - 10 * 60_000;
}
