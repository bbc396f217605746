import type { AdapterName } from "../../src/oracle/sources";
import currencyApi from "../fixtures/oracle/currency-api.json";
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
 * republishes it at the current time.
 */
export const recorded = {
  quidax,
  luno,
  remitano,
  "open-er-api": openErApi,
  "currency-api": currencyApi,
} satisfies Record<AdapterName, unknown>;

/** What the sources answer when they refuse a request, with status 200 or not. */
export const recordedErrors = { quidax: quidaxError, luno: lunoError, "open-er-api": openErApiError };

/** The figure each recorded response stands for: bid/ask where published, and the value the oracle takes. */
export const recordedRates: Record<AdapterName, { bid: number | null; ask: number | null; value: number }> = {
  quidax: twoSided(Number(quidax.data.ticker.buy), Number(quidax.data.ticker.sell)),
  luno: twoSided(Number(luno.bid), Number(luno.ask)),
  // The recording has `usdt_bid` above `usdt_ask` (see the adapter).
  remitano: twoSided(remitano.ng.usdt_ask, remitano.ng.usdt_bid),
  "open-er-api": { bid: null, ask: null, value: openErApi.rates.NGN },
  "currency-api": { bid: null, ask: null, value: currencyApi.usd.ngn },
};

function twoSided(bid: number, ask: number) {
  return { bid, ask, value: Math.round(((bid + ask) / 2) * 1e6) / 1e6 };
}

/** Adapters whose responses carry their own time; the others cannot be stale. */
export const dated: AdapterName[] = ["quidax", "luno", "open-er-api", "currency-api"];

const scaled = (x: string, scale: number) => String(Number(x) * scale);

/** The recorded response as if the source had published it at `at` (unix ms), its NGN prices times `scale`. */
export function republish(adapter: AdapterName, at: number, scale = 1): unknown {
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
  }
}

/** A publication time old enough to be stale for the adapter's default limits (60 s, or two days for daily rates). */
export function staleAt(adapter: AdapterName, now: number): number {
  return adapter === "open-er-api" || adapter === "currency-api" ? now - 5 * 86_400_000 : now - 10 * 60_000;
}
