import { localConfig } from "../../src/config/local";
import type { OracleSourceConfig } from "../../src/config/oracle";
import { publicNativeSources, publicRateSources } from "../../src/oracle/sources";

/** Per source and poll in the integration configuration: short, since one source never answers. */
export const TEST_TIMEOUT_MS = 500;

/**
 * The oracle sources of the workers test projects, served by the fixture server (oracle-server.global.ts).
 * The five real NGN formats answer normally; five more sources each fail one way, so every round shows
 * each kind of failure; then the native prices' sources (ETH/USD and SOL/USD), all answering normally.
 */
export function integrationOracleSources(fixturesUrl: string): OracleSourceConfig[] {
  const at = (path: string) => `${fixturesUrl}${path}`;
  const healthy = publicRateSources.map((s) => ({
    ...s,
    base: "USD",
    quote: "NGN",
    url: at(`/ok/${s.adapter}`),
  }));
  const failing: OracleSourceConfig[] = [
    { name: "quidax-down", adapter: "quidax", url: at("/status/500/quidax"), base: "USD", quote: "NGN" },
    { name: "luno-slow", adapter: "luno", url: at("/slow/luno"), base: "USD", quote: "NGN" },
    { name: "remitano-garbled", adapter: "remitano", url: at("/garbled/remitano"), base: "USD", quote: "NGN" },
    { name: "luno-stale", adapter: "luno", url: at("/stale/luno"), base: "USD", quote: "NGN" },
    { name: "quidax-outlier", adapter: "quidax", url: at("/outlier/quidax"), base: "USD", quote: "NGN" },
  ];
  const natives = [...publicNativeSources("ETH"), ...publicNativeSources("SOL")].map((s) => ({
    ...s,
    url: at(`/ok/${s.adapter}${s.base === "SOL" ? "?base=SOL" : ""}`),
  }));
  return [...healthy, ...failing, ...natives];
}

/**
 * A workers test project's RELAY_CONFIG (JSON; unset means the local default) with the oracle pointed at
 * the fixture server, so no test ever polls a public source.
 */
export function withFixtureOracle(relayConfig: string | undefined, fixturesUrl: string): string {
  const config = relayConfig ? (JSON.parse(relayConfig) as typeof localConfig) : localConfig;
  return JSON.stringify({
    ...config,
    oracle: { ...config.oracle, timeoutMs: TEST_TIMEOUT_MS, sources: integrationOracleSources(fixturesUrl) },
  });
}
