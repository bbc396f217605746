/**
 * A JSON-RPC pass-through between the relay and a chain (anvil, the Solana harness) that records when each call was in flight, so a
 * benchmark can tell the time a request spent waiting on the chain from the time the relay spent itself.
 * Times are `performance.now()` of this process, the clock the benchmark times its requests with.
 */
import { createServer, type Server } from "node:http";
import { freePort } from "../scripts/lib/processes";

export interface RpcCall {
  /** Methods of the request (a batch has several). */
  methods: string[];
  /** The params of each, e.g. the block tag of eth_getBlockByNumber first. */
  params: unknown[][];
  start: number;
  end: number;
}

export interface RpcTimer {
  url: string;
  /** Calls that ended after `since`. */
  callsSince(since: number): RpcCall[];
  stop(): Promise<void>;
}

export async function startRpcTimer(upstream: string): Promise<RpcTimer> {
  const calls: RpcCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const start = performance.now();
      const body = Buffer.concat(chunks).toString();
      try {
        const upstreamRes = await fetch(upstream, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        const text = await upstreamRes.text();
        res.writeHead(upstreamRes.status, { "content-type": "application/json" }).end(text);
      } catch (e) {
        res.writeHead(502).end(String(e));
      }
      const end = performance.now();
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = [];
      }
      const requests = (Array.isArray(parsed) ? parsed : [parsed]) as { method?: string; params?: unknown[] }[];
      calls.push({
        methods: requests.map((r) => r.method ?? "?"),
        params: requests.map((r) => r.params ?? []),
        start,
        end,
      });
      // Keep memory bounded on long runs: old calls are never asked for again.
      if (calls.length > 50_000) calls.splice(0, 25_000);
    });
  });
  const port = await freePort();
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${port}`,
    callsSince: (since) => calls.filter((c) => c.end > since),
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * The time within `[from, to]` during which at least one of `calls` was in flight: what a request
 * waited on the chain, counting calls made in parallel once.
 */
export function busyTime(calls: readonly RpcCall[], from: number, to: number): number {
  const spans = calls
    .map((c) => [Math.max(c.start, from), Math.min(c.end, to)] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [curStart, curEnd] = [Number.NaN, Number.NaN];
  for (const [s, e] of spans) {
    if (Number.isNaN(curStart) || s > curEnd) {
      if (!Number.isNaN(curStart)) total += curEnd - curStart;
      [curStart, curEnd] = [s, e];
    } else curEnd = Math.max(curEnd, e);
  }
  if (!Number.isNaN(curStart)) total += curEnd - curStart;
  return total;
}
