/**
 * The floor's Worker (bench/floor/, bench/README.md "The floor") under `wrangler dev`, as
 * scripts/lib/local-stack.ts starts the relay: loopback, a free port, fresh state in a temporary directory;
 * with its own workerd found behind wrangler's proxy (bench/workerd.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { answersOk, freePort, spawnGroup, waitUntil } from "../scripts/lib/processes";
import type { RequiredKeeperEnv } from "./floor/required-keeper";
import { findWorkerRuntime, type WorkerProbe, type WorkerRuntime } from "./workerd";

const root = resolve(import.meta.dirname, "..");
const wranglerBin = join(root, "node_modules/wrangler/bin/wrangler.js");
const config = join(root, "bench/floor/wrangler.toml");

/** The floor answers `GET /health` with `ok`. */
const FLOOR_PROBE: WorkerProbe = { path: "/health", isWorkers: (body) => body === "ok" };

/**
 * Whether `wrangler dev` gives its Workers Miniflare's local observability (`X_LOCAL_OBSERVABILITY`, on
 * unless "false"): every invocation, call and log line also goes as a streaming tail event to a collector
 * in the same workerd. It applies to the relay and the floor alike (bench/README.md, "The floor").
 */
export function localObservability(): string {
  return process.env.X_LOCAL_OBSERVABILITY?.toLowerCase() === "false" ? "off" : "on";
}

export interface FloorProcess {
  /** wrangler's proxy. */
  url: string;
  /** The floor's own workerd and entry socket. */
  runtime: WorkerRuntime;
  stop(): Promise<void>;
}

/**
 * `wrangler dev` of the floors; `rpcUrl` is the chain their keepers call (the submission floors), and
 * `required` the required-work keeper's chain facts and key (bench/floor/required-keeper.ts).
 */
export async function startFloor(
  options: { rpcUrl?: string; required?: Omit<RequiredKeeperEnv, "RPC_URL"> } = {},
): Promise<FloorProcess> {
  const state = await mkdtemp(join(tmpdir(), "relay-floor-"));
  const port = await freePort();
  const inspectorPort = await freePort();
  const given = { ...(options.rpcUrl ? { RPC_URL: options.rpcUrl } : {}), ...options.required };
  const vars = Object.entries(given).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const proc = spawnGroup(
    process.execPath,
    [
      wranglerBin,
      "dev",
      "--config",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      state,
      "--show-interactive-dev-session=false",
      ...vars,
    ],
    { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" } },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await proc.stop();
    await rm(state, { recursive: true, force: true });
  };
  try {
    await waitUntil(() => answersOk(`${url}${FLOOR_PROBE.path}`), {
      what: `the floor's wrangler dev on ${url}`,
      timeoutMs: 60_000,
      intervalMs: 200,
      process: proc,
    });
    return { url, runtime: await findWorkerRuntime(url, FLOOR_PROBE), stop };
  } catch (e) {
    await stop();
    throw new Error(`the floor did not start: ${(e as Error).message}\n${proc.output()}`);
  }
}
