/**
 * The local stack's own rate source (docs/local-stack.md, "Rates with no internet"): a loopback HTTP
 * server answering in the format of ExchangeRate-API's open endpoint (the `open-er-api` adapter), always
 * freshly dated: NGN per USD at `/v6/latest/USD` (`npm start -- --rate`), and each native token's dollar
 * price at `/v6/latest/<asset>` (`--eth-usd`, `--sol-usd`). The local configuration lists these beside
 * the public sources, so the oracle has its bands, limit orders a market and the gas fee a native price,
 * offline.
 */
import { createServer, type Server } from "node:http";
import { LOCAL_NATIVE_SOURCES, LOCAL_RATE_SOURCE } from "../../src/config/local";

/** NGN per USD when no `--rate` is given: near the recorded market of the oracle fixtures. */
export const DEFAULT_LOCAL_RATE = "1580";

/** The native tokens the local source prices, in USD per whole token, and the flag that sets each. */
export type LocalNative = (typeof LOCAL_NATIVE_SOURCES)[number]["base"];
export type NativeRates = Record<LocalNative, number>;
export const NATIVE_RATE_FLAGS = { ETH: "eth-usd", SOL: "sol-usd" } as const satisfies Record<LocalNative, string>;
/** USD per ETH and per SOL when no flag is given: near the market when these were written. */
export const DEFAULT_NATIVE_RATES = { ETH: "3000", SOL: "150" } as const satisfies Record<LocalNative, string>;

export interface LocalRateSource {
  /** Where NGN per USD is served (the local configuration's `local` source, or its path on another port). */
  url: string;
  /** Where each native token's price is served. */
  nativeUrls: Record<LocalNative, string>;
  stop(): Promise<void>;
}

/** The body the `open-er-api` adapter reads: `rate` units of `quote` per one `base`, dated `now`. */
export function openErApiBody(rate: number, now = Date.now(), base = "USD", quote = "NGN") {
  const seconds = Math.floor(now / 1000);
  return { result: "success", base_code: base, time_last_update_unix: seconds, rates: { [base]: 1, [quote]: rate } };
}

/** Parses a rate flag: a positive decimal number, `unit` naming what it counts in the error. */
export function parseRate(text: string, flag = "--rate", unit = "NGN per USD", example = DEFAULT_LOCAL_RATE): number {
  const rate = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(rate) || rate <= 0) {
    throw new Error(`${flag} ${JSON.stringify(text)}: give ${unit} as a positive number, e.g. ${example}`);
  }
  return rate;
}

/** Parses `--eth-usd` or `--sol-usd`: a positive decimal number of USD per whole native token. */
export const parseNativeRate = (asset: LocalNative, text: string): number =>
  parseRate(text, `--${NATIVE_RATE_FLAGS[asset]}`, `USD per ${asset}`, DEFAULT_NATIVE_RATES[asset]);

const defaultNatives = (): NativeRates => ({
  ETH: Number(DEFAULT_NATIVE_RATES.ETH),
  SOL: Number(DEFAULT_NATIVE_RATES.SOL),
});

/**
 * Serves the rates on the local configuration's URLs for these sources (127.0.0.1, their port and paths),
 * or on another port (0: a free one, for tests that run beside `npm start`).
 */
export async function startLocalRateSource(
  rate: number,
  port = Number(new URL(LOCAL_RATE_SOURCE.url).port),
  natives: NativeRates = defaultNatives(),
): Promise<LocalRateSource> {
  // Each path and the body it answers, made at each request so it is always freshly dated.
  const bodies = new Map<string, () => unknown>([
    [new URL(LOCAL_RATE_SOURCE.url).pathname, () => openErApiBody(rate)],
    ...LOCAL_NATIVE_SOURCES.map(
      (s) => [new URL(s.url).pathname, () => openErApiBody(natives[s.base], Date.now(), s.base, s.quote)] as const,
    ),
  ]);
  const server: Server = createServer((req, res) => {
    const body = req.method === "GET" ? bodies.get(new URL(req.url ?? "/", "http://local").pathname) : undefined;
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ? body() : { result: "error", "error-type": "unknown-path" }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  const at = (url: string) => `${origin}${new URL(url).pathname}`;
  return {
    url: at(LOCAL_RATE_SOURCE.url),
    nativeUrls: Object.fromEntries(LOCAL_NATIVE_SOURCES.map((s) => [s.base, at(s.url)])) as Record<LocalNative, string>,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
