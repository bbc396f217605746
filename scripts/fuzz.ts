/**
 * `npm run fuzz -- [--url http://127.0.0.1:8787] [--runs 2000]`: sends generated requests to a running
 * relay (test/support/fuzz-requests.ts) and fails on any 5xx or an error without the error shape or with
 * an undocumented code. Prints what it sent and what came back, by status.
 */
import { parseArgs } from "node:util";
import fc from "fast-check";
import { DOCUMENTED_ERROR_CODES } from "../test/support/error-codes";
import { fuzzInit, fuzzRequest } from "../test/support/fuzz-requests";

const { values } = parseArgs({
  options: { url: { type: "string", default: "http://127.0.0.1:8787" }, runs: { type: "string", default: "2000" } },
});
const base = values.url.replace(/\/+$/, "");
const runs = Number(values.runs);
const documented = new Set<string>(DOCUMENTED_ERROR_CODES);
const byStatus = new Map<number, number>();

await fc.assert(
  fc.asyncProperty(fuzzRequest, async (r) => {
    const res = await fetch(`${base}${r.path}`, fuzzInit(r));
    byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
    const text = await res.text();
    if (res.status >= 500) throw new Error(`${r.method} ${r.path} answered ${res.status}: ${text}`);
    if (res.status >= 400) {
      const err = JSON.parse(text) as { error?: unknown; message?: unknown };
      if (typeof err.message !== "string" || !documented.has(String(err.error))) {
        throw new Error(`${r.method} ${r.path} answered ${res.status} ${text}`);
      }
    }
  }),
  { numRuns: runs },
);
const summary = [...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
console.log(`${runs} requests to ${base}, no 5xx; by status: ${summary.join(", ")}`);
