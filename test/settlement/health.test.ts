import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { HealthRecord } from "../../src/schemas/ops";
import { app, EVM, setFault } from "./helpers";

/** GET /v1/health against a real chain, reached through the fault-injecting proxy (chain.global.ts). */

async function health(): Promise<HealthRecord> {
  const res = await app.request("/v1/health", {}, env);
  expect(res.status).toBe(200);
  return (await res.json()) as HealthRecord;
}

const evmPart = (h: HealthRecord) => h.chains.find((c) => c.chainId === EVM.chainId);

afterEach(() => setFault("none"));

describe("GET /v1/health: the chain", () => {
  it("shows the head and its age while the RPC answers, the chain degraded while it is down, and ok again after", async () => {
    // This anvil mines on transactions only: one block now, so the head is fresh.
    await fetch(env.TEST_CHAIN_RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
    });
    const up = await health();
    expect(evmPart(up)).toMatchObject({ status: "ok", reachable: true, error: null });
    expect(evmPart(up)?.head).toBeGreaterThan(0);
    expect(evmPart(up)?.headAgeSeconds).toBeLessThan(60);
    expect(up.degraded).not.toContain(`chain:${EVM.chainId}`);
    expect(up.keeper.wallets).toContainEqual({ chainId: EVM.chainId, wallets: 1 });

    await setFault("down");
    const down = await health();
    expect(evmPart(down)).toMatchObject({ status: "degraded", reachable: false, head: null });
    expect(evmPart(down)?.error).toContain("503");
    expect(down.status).toBe("degraded");
    expect(down.degraded).toContain(`chain:${EVM.chainId}`);

    await setFault("none");
    expect(evmPart(await health())).toMatchObject({ status: "ok", reachable: true });
  });
});
