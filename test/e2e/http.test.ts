import { describe, expect, inject, it } from "vitest";

const base = inject("relayUrl");

describe("relay over HTTP (wrangler dev)", () => {
  it("serves the configuration record", async () => {
    const res = await fetch(`${base}/v1/config`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = (await res.json()) as { chainId: number; chains: unknown[]; rfqWindowMs: number };
    expect(body.chainId).toBe(31337);
    expect(body.chains).toHaveLength(2);
    expect(body.rfqWindowMs).toBe(1500);
  });

  it("answers an unknown path with not_found", async () => {
    const res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("answers an unknown quote with not_found", async () => {
    const res = await fetch(`${base}/v1/quotes/x`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("publishes an OpenAPI 3 document", async () => {
    const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { openapi: string; paths: object };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/v1/quotes/{id}");
  });
});
