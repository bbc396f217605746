/**
 * The local stack's own NGN/USD rate source (docs/local-stack.md, "Rates with no internet"): a loopback
 * HTTP server answering in the format of ExchangeRate-API's open endpoint (the `open-er-api` adapter),
 * always freshly dated, with the rate `npm start -- --rate <NGN per USD>` gives. The local configuration
 * lists it beside the public sources, so the oracle has a band, and limit orders a market, offline.
 */
import { createServer, type Server } from "node:http";
import { LOCAL_RATE_SOURCE } from "../../src/config/local";

/** NGN per USD when no `--rate` is given: near the recorded market of the oracle fixtures. */
export const DEFAULT_LOCAL_RATE = "1580";

export interface LocalRateSource {
  url: string;
  stop(): Promise<void>;
}

/** The body the `open-er-api` adapter reads, for `rate` NGN per USD, dated `now`. */
export function openErApiBody(rate: number, now = Date.now()) {
  const seconds = Math.floor(now / 1000);
  return { result: "success", base_code: "USD", time_last_update_unix: seconds, rates: { USD: 1, NGN: rate } };
}

/** Parses `--rate`: a positive decimal number of NGN per USD. */
export function parseRate(text: string): number {
  const rate = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(rate) || rate <= 0) {
    throw new Error(`--rate ${JSON.stringify(text)}: give NGN per USD as a positive number, e.g. 1580`);
  }
  return rate;
}

/**
 * Serves the rate on the local configuration's URL for this source (127.0.0.1, its port and path), or on
 * another port (0: a free one, for tests that run beside `npm start`).
 */
export async function startLocalRateSource(
  rate: number,
  port = Number(new URL(LOCAL_RATE_SOURCE.url).port),
): Promise<LocalRateSource> {
  const { pathname } = new URL(LOCAL_RATE_SOURCE.url);
  const server: Server = createServer((req, res) => {
    const found = req.method === "GET" && new URL(req.url ?? "/", "http://local").pathname === pathname;
    res.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(found ? openErApiBody(rate) : { result: "error", "error-type": "unknown-path" }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}${pathname}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
