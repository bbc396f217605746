import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { hashApiKey, lookUpApiKey } from "../../src/limits";

const app = createApp();
const [cngn, usdc] = primaryEvmChain(localConfig).tokens.map((t) => t.address);
const ADMIN = { Authorization: "Bearer test-admin-token", "content-type": "application/json" };

const adminPost = async (path: string, body?: unknown) => {
  const res = await app.request(
    path,
    { method: "POST", headers: ADMIN, ...(body ? { body: JSON.stringify(body) } : {}) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const quoteWith = (headers: Record<string, string>, taker: string) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker }),
    },
    env,
  );

const taker = (i: number) => `0x${(0xa000 + i).toString(16).padStart(40, "0")}`;

describe("API keys", () => {
  it("are issued once in clear, stored hashed, listed without the key, counted by their own quota, and revoked", async () => {
    const issued = await adminPost("/v1/admin/api-keys", {
      name: "acme",
      quotas: { quoteBurst: 2, quotesPerSecond: 1 },
    });
    expect(issued.status).toBe(201);
    const key = issued.body.key as string;
    expect(key).toMatch(/^rk_[0-9a-f]{64}$/);
    const row = await env.DB.prepare("SELECT hash FROM api_keys WHERE id = ?")
      .bind(issued.body.id)
      .first<{ hash: string }>();
    expect(row?.hash).toBe(await hashApiKey(key));
    const list = await app.request("/v1/admin/api-keys", { headers: ADMIN }, env);
    const listed = (await list.json()) as { apiKeys: Record<string, unknown>[] };
    expect(listed.apiKeys).toEqual([expect.objectContaining({ id: issued.body.id, name: "acme", revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(key);

    // Its requests count against the key, whatever address they come from, at its own quota.
    expect((await quoteWith({ "X-Api-Key": key, "CF-Connecting-IP": "198.51.100.1" }, taker(1))).status).toBe(404);
    expect((await quoteWith({ "X-Api-Key": key, "CF-Connecting-IP": "198.51.100.2" }, taker(2))).status).toBe(404);
    expect((await quoteWith({ "X-Api-Key": key, "CF-Connecting-IP": "198.51.100.3" }, taker(3))).status).toBe(429);
    expect((await quoteWith({ "CF-Connecting-IP": "198.51.100.3" }, taker(4))).status).toBe(404);

    const unknown = await quoteWith({ "X-Api-Key": "rk_nope", "CF-Connecting-IP": "198.51.100.4" }, taker(5));
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: "invalid_api_key" });

    const revoked = await adminPost(`/v1/admin/api-keys/${issued.body.id}/revoke`);
    expect(revoked).toMatchObject({ status: 200, body: { id: issued.body.id, revokedAt: expect.any(String) } });
    expect((await adminPost(`/v1/admin/api-keys/ak_${"0".repeat(32)}/revoke`)).status).toBe(404);
  });

  it("refuses a body that is not a name and quotas with 400 invalid_request", async () => {
    expect((await adminPost("/v1/admin/api-keys", { name: "" })).status).toBe(400);
    expect((await adminPost("/v1/admin/api-keys", { name: "x", quotas: { quoteBurst: -1 } })).status).toBe(400);
    expect((await adminPost("/v1/admin/api-keys", { name: "x", owner: "y" })).status).toBe(400);
  });
});

/** The relay's D1, counting the statements prepared on it (each lookup is one read). */
function countingDb() {
  const counted = { reads: 0 };
  const db = {
    prepare: (sql: string) => {
      counted.reads += 1;
      return env.DB.prepare(sql);
    },
  } as unknown as D1Database;
  return { db, counted };
}

describe("the API-key cache", () => {
  it("keeps a known key however many unknown keys are looked up, and forgets unknown ones within seconds", async () => {
    const issued = await adminPost("/v1/admin/api-keys", { name: "busy-integrator" });
    const key = issued.body.key as string;
    const { db, counted } = countingDb();
    const now = Date.now();
    expect(await lookUpApiKey(db, key, now)).toMatchObject({ id: issued.body.id });
    expect(counted.reads).toBe(1);
    // 1,500 unknown keys, 100 at a time: one after another they spent 5 s of D1 reads on a loaded machine.
    for (let from = 0; from < 1_500; from += 100) {
      const batch = Array.from({ length: 100 }, (_, i) => lookUpApiKey(db, `rk_unknown${from + i}`, now));
      expect(await Promise.all(batch)).toEqual(batch.map(() => null));
    }
    expect(counted.reads).toBe(1_501);
    // The known key is still cached: no read.
    expect(await lookUpApiKey(db, key, now + 1)).toMatchObject({ id: issued.body.id });
    expect(counted.reads).toBe(1_501);
    // An unknown key repeated at once costs no read; a few seconds on it is read again.
    expect(await lookUpApiKey(db, "rk_unknown1499", now + 1)).toBeNull();
    expect(counted.reads).toBe(1_501);
    expect(await lookUpApiKey(db, "rk_unknown1499", now + 5_000)).toBeNull();
    expect(counted.reads).toBe(1_502);
  });
});
