/**
 * The parts of the runtime `npm run bench:perf` (bench/perf-split.ts) splits a process's CPU into, and the
 * split itself: plain functions over `perf script` output.
 */

/** The parts, in the order a sample is matched: the first whose pattern a frame of its stack matches. */
export const PARTS: readonly { part: string; frames: RegExp }[] = [
  { part: "local observability (wrangler dev's collector)", frames: /TailStream|tracing::/ },
  { part: "the inspector and console messages", frames: /Inspector|V8Console|ConsoleHelper/ },
  { part: "WebSocket compression (permessage-deflate)", frames: /Zlib|deflate|inflate|Cr_z_/ },
  { part: "SQLite: object storage and local D1 (fsync included)", frames: /sqlite3/ },
  { part: "BigInt arithmetic (secp256k1, amounts)", frames: /BigInt/ },
  { part: "a resolver frame's event (its handler's JavaScript included)", frames: /HibernatableWebSocketCustomEvent/ },
  { part: "RPC between the Worker and objects", frames: /JsRpc/ },
  { part: "HTTP: requests, fetches, D1 calls", frames: /Http/ },
  { part: "garbage collection", frames: /Scavenge|MarkCompact|GCTracer/ },
];
const OTHER = "the rest: JavaScript, the event loop, the kernel";

/** The share of each part in `perf script -F comm,ip,sym` output: samples apart by blank lines, each its process name then its frames. */
export function splitSamples(script: string): { part: string; share: number }[] {
  const counts = new Map<string, number>();
  let total = 0;
  for (const sample of script.split(/\n\s*\n/)) {
    const frames = sample.trim().split("\n").slice(1).join("\n");
    if (!frames) continue;
    total += 1;
    const part = PARTS.find((p) => p.frames.test(frames))?.part ?? OTHER;
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  return [...counts].map(([part, n]) => ({ part, share: n / total })).sort((a, b) => b.share - a.share);
}
