/**
 * Which of the oracle's sources this machine can reach, asked from Node before `npm start` starts the
 * relay. workerd logs each fetch whose host does not resolve as an internal error with a stack trace, so
 * an offline relay polling the public sources printed about 11 red lines a minute for as long as it ran.
 * `npm start` asks each source's host once (DNS, then a TCP connection to its port), says in one line
 * which sources cannot be reached and why, and hands the relay its configuration without them, so it
 * never polls a host that cannot answer (docs/local-stack.md, "Rates with no internet").
 */
import { lookup } from "node:dns/promises";
import { connect } from "node:net";
import { parseConfig } from "../../src/config/load";
import type { RelayConfig } from "../../src/config/schema";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** How long one host may take to resolve and accept a connection before it counts as unreachable. */
export const REACH_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(what)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Null when `host:port` resolves and accepts a TCP connection within `timeoutMs`, else why not. */
export async function reachHost(host: string, port: number, timeoutMs = REACH_TIMEOUT_MS): Promise<string | null> {
  const started = Date.now();
  const seconds = `${timeoutMs / 1000} s`;
  try {
    const { address } = await withTimeout(lookup(host), timeoutMs, `does not resolve within ${seconds}`);
    await withTimeout(
      new Promise<void>((ok, fail) => {
        const socket = connect({ host: address, port });
        socket.once("connect", () => {
          socket.destroy();
          ok();
        });
        socket.once("error", (e) => {
          socket.destroy();
          fail(e);
        });
      }),
      Math.max(timeoutMs - (Date.now() - started), 1),
      `no connection within ${seconds}`,
    );
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "does not resolve";
    return code ?? (e as Error).message;
  }
}

/** Source name → why it cannot be reached, for every source off loopback whose host cannot be; each host asked once. */
export async function unreachableSources(
  sources: readonly { name: string; url: string }[],
  reach: (host: string, port: number) => Promise<string | null> = reachHost,
): Promise<Map<string, string>> {
  const hosts = new Map<string, Promise<string | null>>();
  const asked = sources.flatMap((s) => {
    const url = new URL(s.url);
    if (LOOPBACK.has(url.hostname)) return [];
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const key = `${url.hostname}:${port}`;
    if (!hosts.has(key)) hosts.set(key, reach(url.hostname, port));
    return [{ name: s.name, host: url.hostname, reason: hosts.get(key) as Promise<string | null> }];
  });
  const unreachable = new Map<string, string>();
  for (const a of asked) {
    const reason = await a.reason;
    if (reason !== null) unreachable.set(a.name, `${a.host} ${reason}`);
  }
  return unreachable;
}

/**
 * `config` without the sources named, or null when it would not be a valid configuration without them (a
 * corridor or a native price would have no source left): then the relay is given them all.
 */
export function withoutSources(config: RelayConfig, names: ReadonlySet<string>): RelayConfig | null {
  const sources = config.oracle.sources.filter((s) => !names.has(s.name));
  try {
    return parseConfig({ ...config, oracle: { ...config.oracle, sources } });
  } catch {
    return null;
  }
}

/** The one line `npm start` prints about them: which cannot be reached, why (the first host's reason), and what follows. */
export function unreachableLine(unreachable: ReadonlyMap<string, string>, kept: readonly string[] | null): string {
  const names = [...unreachable.keys()];
  const [first] = unreachable.values();
  const what = `${names.length} of the oracle's sources cannot be reached from here (${names.join(", ")}; ${first})`;
  return kept
    ? `${what}: the relay runs without them, with ${kept.join(", ")}; start again online to use them`
    : `${what}, and the configuration needs them: the relay polls them, and workerd logs each failed lookup`;
}
