import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load";
import { LOCAL_STACK_RPC_URLS } from "../support/closed-chains";

/**
 * The relay of the integration projects talks to no outside part the run did not start
 * (docs/testing.md, "What each project talks to"): with `npm start` up beside the suite, its anvil on
 * 8545 and Solana harness on 8899 would otherwise answer the relay's chain reads.
 */
const config = loadConfig(env.RELAY_CONFIG);

describe("the outside parts of the integration relay", () => {
  it("has every chain at the run's own closed port, none at the local stack's, and that port answers nothing", async () => {
    expect(config.chains.length).toBeGreaterThan(0);
    for (const chain of config.chains) {
      expect(LOCAL_STACK_RPC_URLS).not.toContain(chain.rpcUrl);
      expect(chain.rpcUrl).toBe(env.TEST_CLOSED_RPC_URL);
    }
    const started = Date.now();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    await expect(fetch(env.TEST_CLOSED_RPC_URL, { method: "POST", body })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("polls every rate source at the run's fixture server", () => {
    for (const source of config.oracle.sources) expect(source.url.startsWith(env.ORACLE_FIXTURES_URL)).toBe(true);
  });
});
