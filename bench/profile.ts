/**
 * `npm run bench:profile`: where the relay's CPU goes on quotes (bench/README.md, "What a quote and a
 * submission cost now"). Starts `wrangler dev` with its inspector, connects `BENCH_RESOLVERS` reference
 * resolvers, samples the Worker's isolate with V8's CPU profiler over `BENCH_QUOTES` quotes asked as
 * `bench:paired` asks them (`BENCH_CONCURRENCY` clients at once, takers in turn, the bench's configuration),
 * and prints the isolate's busy time a quote, the functions and the source files with the most self time.
 * `BENCH_PROFILE=submissions` does the same over `BENCH_EXECUTIONS` submissions one at a time on the stack
 * of `bench:execute` (their quotes made and signed before the profiler starts), the indexer's passes until
 * they land included.
 */
import WebSocket from "ws";
import { anvilPrivateKey, LOCAL_ACCOUNTS } from "../scripts/lib/local-stack";
import { freePort, startRelay } from "../test/e2e/harness";
import { quoteAndSign, startStack, submit, withRelay } from "./execute-stack";
import { benchConfig, QuoteFailed, quote, taker, USD_TOKENS, withFleet } from "./rfq-relay";

const RESOLVERS = Number(process.env.BENCH_RESOLVERS ?? 20);
const QUOTES = Number(process.env.BENCH_QUOTES ?? 200);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/**
 * A minimal Chrome DevTools protocol client over the inspector's WebSocket (the `ws` package, already
 * installed with @solana/web3.js and miniflare; Node's own WebSocket is refused by wrangler's proxy).
 */
async function inspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error("the inspector lists no target");
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => waiting.set(id, (r) => resolve(r as T)));
    },
    close: () => ws.close(),
  };
}

const place = (f: ProfileNode["callFrame"]) => `${f.url.split("/").slice(-2).join("/") || "(native)"}`;

/** Samples the Worker's isolate while `work` runs; prints the top functions and files. */
async function profiled(inspectorPort: number, what: string, count: number, work: () => Promise<void>): Promise<void> {
  const cdp = await inspector(inspectorPort);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await work();
  const { profile } = await cdp.send<{ profile: { nodes: ProfileNode[] } }>("Profiler.stop");
  cdp.close();
  const total = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const f = node.callFrame;
    const key = `${f.functionName || "(anonymous)"}  ${place(f)}:${f.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    byFile.set(place(f), (byFile.get(place(f)) ?? 0) + hits);
  }
  // Total time: a sample counts once for every distinct function on its stack.
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const withCallees = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const seen = new Set<string>();
    for (let at: ProfileNode | undefined = node; at; at = parent.get(at.id)) {
      const f = at.callFrame;
      if (!f.url) continue;
      seen.add(`${f.functionName || "(anonymous)"}  ${place(f)}:${f.lineNumber + 1}`);
    }
    for (const key of seen) withCallees.set(key, (withCallees.get(key) ?? 0) + hits);
  }
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`${((100 * v) / total).toFixed(1).padStart(6)} %  ${k}`);
    }
  };
  const idle = byFunction.get("(idle)  (native):0") ?? 0;
  console.log(`${what}: ${total} samples of 0.1 ms in the Worker's isolate`);
  console.log(`busy (idle left out): ${((total - idle) / 10 / count).toFixed(2)} ms each`);
  show("self time by function", byFunction);
  show("self time by file", byFile);
  show("total time by function (its callees included)", withCallees);
}

async function submissions(): Promise<void> {
  const count = Number(process.env.BENCH_EXECUTIONS ?? 100);
  const stack = await startStack();
  try {
    const inspectorPort = await freePort();
    const keys = [anvilPrivateKey(LOCAL_ACCOUNTS.keeper)];
    await withRelay(
      stack,
      keys,
      async (relayUrl) => {
        for (let i = 0; i < 5; i++) await submit(relayUrl, await quoteAndSign(relayUrl, stack.client, i, 0), 0);
        const signed: Awaited<ReturnType<typeof quoteAndSign>>[] = [];
        for (let i = 0; i < count; i++) signed.push(await quoteAndSign(relayUrl, stack.client, 5 + i, 0));
        await profiled(inspectorPort, `${count} submissions one at a time`, count, async () => {
          for (const s of signed) await submit(relayUrl, s, 0);
          // The indexer's passes that see them land (a block a second, 1 s passes).
          await new Promise((r) => setTimeout(r, 3_000));
        });
      },
      { inspectorPort },
    );
  } finally {
    await stack.stop();
  }
}

async function main() {
  if (process.env.BENCH_PROFILE === "submissions") return submissions();
  const inspectorPort = await freePort();
  // The load of `bench:paired` and `bench:floor`: the bench's configuration, its resolver thread, each
  // concurrent slot a client of its own and takers in turn, so every quote runs its auction.
  const relay = await startRelay({ inspectorPort, vars: { RELAY_CONFIG: JSON.stringify(benchConfig()) } });
  const buyToken = USD_TOKENS[0] as string;
  const statuses = new Map<number, number>();
  let asked = 0;
  const loops = (count: number) =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, client) => {
        while (asked < count) {
          const at = asked++;
          const status = await quote(relay.url, taker(at), buyToken, client).then(
            () => 200,
            (e: unknown) => (e instanceof QuoteFailed ? e.status : Promise.reject(e)),
          );
          if (count === QUOTES) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
  try {
    await withFleet(relay.url, RESOLVERS, async () => {
      await loops(100);
      asked = 0;
      await profiled(
        inspectorPort,
        `${QUOTES} quotes, ${CONCURRENCY} at once, ${RESOLVERS} resolvers`,
        QUOTES,
        async () => {
          await loops(QUOTES);
          // Let the work behind the answers (write-behind, the losers' signature checks) finish inside the window.
          await new Promise((r) => setTimeout(r, 500));
        },
      );
    });
    console.log(`\nanswers by status: ${[...statuses].map(([s, n]) => `${s} × ${n}`).join(", ")}`);
  } finally {
    await relay.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
