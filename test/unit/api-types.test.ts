import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { API_TYPES_PATH, apiTypes } from "../../scripts/lib/api-types";

/**
 * The committed client types (src/clients/taker/relay-api.d.ts) are what openapi-typescript makes of the
 * document the relay serves now (docs/api.md, "A typed client"), so the taker library and the typed e2e
 * test call the relay's real routes with their real shapes.
 */
it("the committed OpenAPI types are up to date with GET /v1/openapi.json (else run `npm run api:types`)", async () => {
  const committed = readFileSync(API_TYPES_PATH, "utf8");
  expect(committed, "out of date: run `npm run api:types` and commit the result").toBe(await apiTypes());
}, 30_000);
