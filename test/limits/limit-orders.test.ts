import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { LimitOrderDraft } from "../../src/schemas/limit-order";
import { FakeLimitReads } from "../support/fake-limit-reads";

/** The limit-order routes at the default limits, the chain reads through the in-memory fake. */
const reads = new FakeLimitReads();
const app = createApp({ limitOrderChains: reads.chains() });
const [cngn, usdc] = primaryEvmChain(localConfig).tokens.map((t) => t.address);
const taker = privateKeyToAccount(generatePrivateKey());

const post = (path: string, ip: string, body: unknown) =>
  app.request(
    path,
    {
      method: "POST",
      headers: { "content-type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify(body),
    },
    env,
  );

describe("placing limit orders", () => {
  it("is counted per client where every isolate sees it: 429 past 10 a minute, another client served", async () => {
    const prepared = await post("/v1/limit-orders/prepare", "198.51.100.40", {
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "158000000000",
      limitAmount: "100000000",
      taker: taker.address,
      expiresInSeconds: 86_400,
    });
    expect(prepared.status).toBe(200);
    const draft = (await prepared.json()) as LimitOrderDraft;
    const signature = await taker.signTypedData(
      typedDataFromJson(draft.typedData as never) as Parameters<typeof taker.signTypedData>[0],
    );
    const placing = { draft, signature };
    // Each placement is counted before it reads the chain, whatever it answers (the first 201, then the
    // same nonce 409).
    for (let i = 0; i < localConfig.limits.limitOrdersPerMinute; i++) {
      expect((await post("/v1/limit-orders", "198.51.100.41", placing)).status).not.toBe(429);
    }
    const refused = await post("/v1/limit-orders", "198.51.100.41", placing);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect((await post("/v1/limit-orders", "198.51.100.42", placing)).status).not.toBe(429);
  });
});
