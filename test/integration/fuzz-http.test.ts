import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { DOCUMENTED_ERROR_CODES } from "../support/error-codes";
import { fuzzInit, fuzzRequest } from "../support/fuzz-requests";

/**
 * Property: whatever is sent to any route (method, path, headers, content type, body), the relay never
 * answers 5xx, and every error has the error shape with a documented code. `npm run fuzz` runs the same
 * generator against a running relay.
 */
const RUNS = 300;

const app = createApp();
const documented = new Set<string>(DOCUMENTED_ERROR_CODES);

describe("fuzzing every route", () => {
  it(`never answers 5xx, and every error is the error shape with a documented code (${RUNS} requests)`, async () => {
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async (r) => {
        const res = await app.request(r.path, fuzzInit(r), env);
        expect(res.status, `${r.method} ${r.path}`).toBeLessThan(500);
        if (res.status >= 400) {
          const err = (await res.json()) as { error?: unknown; message?: unknown };
          expect(typeof err.message, `${r.method} ${r.path}`).toBe("string");
          expect(documented.has(String(err.error)), `${r.method} ${r.path} answered ${String(err.error)}`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
