import { describe, expect, it } from "vitest";
import { adapters } from "../../src/oracle/sources";
import {
  nativeAdapters,
  recorded,
  recordedErrors,
  recordedPairs,
  recordedRates,
  recordedSol,
  recordedSolRates,
} from "../support/oracle-fixtures";

const USD_NGN = { base: "USD", quote: "NGN" };
const ETH_USD = { base: "ETH", quote: "USD" };
const SOL_USD = { base: "SOL", quote: "USD" };
const clone = <T>(x: T): T => structuredClone(x);

describe("quidax", () => {
  it("reads the best bid (buy) and ask (sell) of the USDT/NGN ticker, and its time in seconds", () => {
    expect(adapters.quidax.parse(recorded.quidax, USD_NGN)).toStrictEqual({
      ok: true,
      reading: { bid: 1452.1, ask: 1455.9, value: 1454, at: 1763726400_000 },
    });
  });

  it.each([
    ["the source's own error body", recordedErrors.quidax, /malformed: data\.at/],
    [
      "a price that is not a number",
      { data: { ...recorded.quidax.data, ticker: { ...recorded.quidax.data.ticker, buy: "n/a" } } },
      /ticker\.buy/,
    ],
    ["a missing ticker", { status: "success", data: { at: 1763726400 } }, /data\.ticker/],
    ["a body that is not an object", "Service Unavailable", /malformed/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.quidax.parse(body, USD_NGN);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("luno", () => {
  it("reads bid and ask, and the timestamp in milliseconds", () => {
    expect(adapters.luno.parse(recorded.luno, USD_NGN)).toStrictEqual({
      ok: true,
      reading: { bid: 1451, ask: 1458, value: 1454.5, at: 1763726400123 },
    });
  });

  it("refuses a market that is not trading", () => {
    const body = { ...clone(recorded.luno), status: "POSTONLY" };
    expect(adapters.luno.parse(body, USD_NGN)).toStrictEqual({ ok: false, reason: "market POSTONLY" });
  });

  it.each([
    ["the source's own error body", recordedErrors.luno, /timestamp/],
    ["a timestamp given as text", { ...clone(recorded.luno), timestamp: "1763726400123" }, /timestamp/],
    ["a negative price", { ...clone(recorded.luno), ask: "-1458.00" }, /ask/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.luno.parse(body, USD_NGN);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("remitano", () => {
  it("reads the NGN market's USDT sides, the lower as bid, and has no time of its own", () => {
    expect(adapters.remitano.parse(recorded.remitano, USD_NGN)).toStrictEqual({
      ok: true,
      reading: { bid: 1449, ask: 1463, value: 1456, at: null },
    });
  });

  it("picks the market by currency, not by position", () => {
    expect(adapters.remitano.parse(recorded.remitano, { base: "USD", quote: "GHS" })).toMatchObject({
      ok: true,
      reading: { bid: 10.93, ask: 11.21 },
    });
  });

  it.each([
    ["a response without an NGN market", { gh: recorded.remitano.gh }, /no NGN market/],
    ["an NGN market without USDT prices", { ng: { currency: "NGN", btc_bid: 1, btc_ask: 2 } }, /no NGN market/],
    ["a list instead of an object", [recorded.remitano.ng], /malformed/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.remitano.parse(body, USD_NGN);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("open-er-api", () => {
  it("reads one number, rates.NGN, with the time of the last update", () => {
    expect(adapters["open-er-api"].parse(recorded["open-er-api"], USD_NGN)).toStrictEqual({
      ok: true,
      reading: { bid: null, ask: null, value: 1447.66, at: 1763683201_000 },
    });
  });

  it("reports the source's own error", () => {
    expect(adapters["open-er-api"].parse(recordedErrors["open-er-api"], USD_NGN)).toStrictEqual({
      ok: false,
      reason: "source error: unsupported-code",
    });
  });

  it.each([
    ["a response for another base", { ...clone(recorded["open-er-api"]), base_code: "EUR" }, /base_code is EUR/],
    ["a response without NGN", { ...clone(recorded["open-er-api"]), rates: { USD: 1 } }, /rates\.NGN/],
    ["an NGN rate given as text", { ...clone(recorded["open-er-api"]), rates: { NGN: "1447.66" } }, /rates\.NGN/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters["open-er-api"].parse(body, USD_NGN);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("currency-api", () => {
  it("reads one number, usd.ngn, dated the start of its day (UTC)", () => {
    expect(adapters["currency-api"].parse(recorded["currency-api"], USD_NGN)).toStrictEqual({
      ok: true,
      reading: { bid: null, ask: null, value: 1449.31260485, at: Date.UTC(2025, 10, 21) },
    });
  });

  it.each([
    ["a response without a date", { usd: { ngn: 1449.3 } }, /date/],
    ["a date that is not a date", { ...clone(recorded["currency-api"]), date: "yesterday" }, /date/],
    ["a response for another base", { date: "2025-11-21", eur: { ngn: 1673.1 } }, /usd/],
    ["a response without ngn", { date: "2025-11-21", usd: { eur: 0.87 } }, /usd\.ngn/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters["currency-api"].parse(body, USD_NGN);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("coinbase", () => {
  it("reads the spot amount of the pair it was asked, with no time of its own", () => {
    expect(adapters.coinbase.parse(recorded.coinbase, ETH_USD)).toStrictEqual({
      ok: true,
      reading: { bid: null, ask: null, value: 3012.345, at: null },
    });
    expect(adapters.coinbase.parse(recordedSol.coinbase, SOL_USD)).toMatchObject({
      ok: true,
      reading: { value: 142.155 },
    });
  });

  it("reports the source's own error", () => {
    expect(adapters.coinbase.parse(recordedErrors.coinbase, ETH_USD)).toStrictEqual({
      ok: false,
      reason: "source error: not_found",
    });
  });

  it.each([
    ["an answer for another pair", recordedSol.coinbase, /prices SOL\/USD, not ETH\/USD/],
    ["an amount that is not a number", { data: { ...recorded.coinbase.data, amount: "soon" } }, /data\.amount/],
    ["a body without data", { amount: "3012.345" }, /data/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.coinbase.parse(body, ETH_USD);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("kraken", () => {
  it("reads the best bid (b) and ask (a) of the pair's ticker, whatever Kraken names it", () => {
    expect(adapters.kraken.parse(recorded.kraken, ETH_USD)).toStrictEqual({
      ok: true,
      reading: { bid: 3012.1, ask: 3012.5, value: 3012.3, at: null },
    });
    expect(adapters.kraken.parse(recordedSol.kraken, SOL_USD)).toStrictEqual({
      ok: true,
      reading: { bid: 142.12, ask: 142.18, value: 142.15, at: null },
    });
    const btc = { error: [], result: { XXBTZUSD: recorded.kraken.result.XETHZUSD } };
    expect(adapters.kraken.parse(btc, { base: "BTC", quote: "USD" })).toMatchObject({ ok: true });
  });

  it("reports the source's own error", () => {
    expect(adapters.kraken.parse(recordedErrors.kraken, ETH_USD)).toStrictEqual({
      ok: false,
      reason: "source error: EQuery:Unknown asset pair",
    });
  });

  it.each([
    ["an answer for another pair", recordedSol.kraken, /no ETH\/USD ticker/],
    ["a ticker without an ask", { error: [], result: { XETHZUSD: { b: ["3012.1", "1", "1.000"] } } }, /XETHZUSD\.a/],
    ["a bid that is not a number", { error: [], result: { XETHZUSD: { a: ["1"], b: ["-"] } } }, /XETHZUSD\.b/],
    ["a body without the error list", { result: recorded.kraken.result }, /error/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.kraken.parse(body, ETH_USD);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("bitstamp", () => {
  it("reads bid and ask, and the timestamp in seconds given as text", () => {
    expect(adapters.bitstamp.parse(recorded.bitstamp, ETH_USD)).toStrictEqual({
      ok: true,
      reading: { bid: 3011.9, ask: 3012.7, value: 3012.3, at: 1763726400_000 },
    });
    expect(adapters.bitstamp.parse(recordedSol.bitstamp, SOL_USD)).toMatchObject({
      ok: true,
      reading: { bid: 142.1, ask: 142.22, value: 142.16 },
    });
  });

  it.each([
    ["a body without a timestamp", { bid: "3011.9", ask: "3012.7" }, /timestamp/],
    ["a timestamp that is not unix seconds", { ...clone(recorded.bitstamp), timestamp: "2025-11-21" }, /timestamp/],
    ["an empty book", { ...clone(recorded.bitstamp), bid: "" }, /bid/],
    ["an error body", { status: "error", reason: "Not found" }, /malformed/],
  ])("refuses %s", (_, body, reason) => {
    const result = adapters.bitstamp.parse(body, ETH_USD);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("the recorded fixtures", () => {
  it("stand for the figures the tests expect of them", () => {
    for (const [name, adapter] of Object.entries(adapters)) {
      const key = name as keyof typeof recorded;
      const result = adapter.parse(recorded[key], recordedPairs[key]);
      expect(result.ok && result.reading).toMatchObject(recordedRates[key]);
    }
    for (const name of nativeAdapters) {
      const result = adapters[name].parse(recordedSol[name], SOL_USD);
      expect(result.ok && result.reading).toMatchObject(recordedSolRates[name]);
    }
  });
});
