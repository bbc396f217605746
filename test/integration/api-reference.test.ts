import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

/** The API reference page (docs/explorer.md); that it renders in a browser is test/e2e/explorer.test.ts. */
const app = createApp();

describe("GET /reference", () => {
  it("answers Swagger UI for /v1/openapi.json, its script and styles served by the relay, not a CDN", async () => {
    const res = await app.request("/reference", {}, env);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("url: '/v1/openapi.json'");
    const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.sort()).toEqual([
      "/vendor/swagger-ui-dist/swagger-ui-bundle.js",
      "/vendor/swagger-ui-dist/swagger-ui.css",
    ]);
  });

  it("is in the OpenAPI document beside it", async () => {
    const doc = (await (await app.request("/v1/openapi.json", {}, env)).json()) as { paths: Record<string, unknown> };
    expect(doc.paths["/reference"]).toHaveProperty("get");
  });
});
