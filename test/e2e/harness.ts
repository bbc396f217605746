import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const root = resolve(import.meta.dirname, "../..");
const wranglerBin = join(root, "node_modules/wrangler/bin/wrangler.js");
const run = promisify(execFile);

/** A port nobody listens on right now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

export interface RelayProcess {
  url: string;
  stop(): Promise<void>;
  /** What wrangler printed, for failure messages. */
  output(): string;
}

export interface StartOptions {
  /** Worker variables, passed as `--var NAME:VALUE`. */
  vars?: Record<string, string>;
  readyTimeoutMs?: number;
}

/** `wrangler dev` on a free loopback port with a fresh local state (D1 migrated), ready to serve. */
export async function startRelay(options: StartOptions = {}): Promise<RelayProcess> {
  const state = await mkdtemp(join(tmpdir(), "relay-e2e-"));
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" };
  await run(process.execPath, [wranglerBin, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
    cwd: root,
    env,
  });
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const vars = Object.entries(options.vars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    process.execPath,
    [
      wranglerBin,
      "dev",
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
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await kill(child);
    await rm(state, { recursive: true, force: true });
  };
  try {
    await waitReady(`${url}/v1/config`, child, options.readyTimeoutMs ?? 60_000);
  } catch (e) {
    await stop();
    throw new Error(`wrangler dev did not become ready: ${(e as Error).message}\n${log}`);
  }
  return { url, stop, output: () => log };
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from ${url} in ${timeoutMs} ms`);
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once("exit", r));
  // The whole group: wrangler runs workerd as a child of its own.
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
