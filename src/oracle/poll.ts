import type { OracleSourceConfig } from "../config";
import { adapters } from "./sources";
import type { ParseResult, SourceAdapter } from "./sources/adapter";
import type { AssetPair, Reading } from "./types";

/** A configured source, ready to poll: where to ask and how to read the answer. */
export interface RateSource {
  name: string;
  url: string;
  pair: AssetPair;
  /** How old the source's own timestamp may be before it is left out. */
  maxAgeMs: number;
  parse(body: unknown): ParseResult;
}

/**
 * The configured sources, ready to poll. A source's age limit is its own `maxAgeSeconds`, else its
 * format's (two days for a daily reference rate, `SourceAdapter.maxAgeSeconds`), else the oracle's
 * `defaultMaxAgeSeconds` (docs/oracle.md, "When a source is left out").
 */
export function rateSources(sources: readonly OracleSourceConfig[], defaultMaxAgeSeconds: number): RateSource[] {
  return sources.map((s) => {
    const pair = { base: s.base, quote: s.quote };
    const adapter: SourceAdapter = adapters[s.adapter];
    return {
      name: s.name,
      url: s.url,
      pair,
      maxAgeMs: (s.maxAgeSeconds ?? adapter.maxAgeSeconds ?? defaultMaxAgeSeconds) * 1000,
      parse: (body: unknown) => adapter.parse(body, pair),
    };
  });
}

/** What asking a source gave: a reading and when its answer was received (unix ms), or why there is none. */
export type PollOutcome =
  | { name: string; ok: true; reading: Reading; receivedAt: number }
  | { name: string; ok: false; reason: string };

const failed = (name: string, reason: string): PollOutcome => ({ name, ok: false, reason });

function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
}

/** Asks one source; never throws, so one source's trouble is only that source's. */
export async function pollSource(
  source: RateSource,
  timeoutMs: number,
  fetcher: typeof fetch = fetch,
): Promise<PollOutcome> {
  // One signal for the whole exchange: a source that sends headers and then stalls the body times out too.
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetcher(source.url, { headers: { accept: "application/json" }, signal });
  } catch (e) {
    return failed(source.name, isAbort(e) ? `no answer within ${timeoutMs} ms` : `fetch failed: ${String(e)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return failed(source.name, `HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (e) {
    return failed(source.name, isAbort(e) ? `no answer within ${timeoutMs} ms` : "malformed: not JSON");
  }
  const receivedAt = Date.now();
  const parsed = source.parse(body);
  return parsed.ok
    ? { name: source.name, ok: true, reading: parsed.reading, receivedAt }
    : failed(source.name, parsed.reason);
}

/** Every source at once, each under its own timeout. */
export function pollSources(
  sources: readonly RateSource[],
  timeoutMs: number,
  fetcher: typeof fetch = fetch,
): Promise<PollOutcome[]> {
  return Promise.all(sources.map((s) => pollSource(s, timeoutMs, fetcher)));
}
