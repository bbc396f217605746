/**
 * Child processes for the local stack (`npm start`), the e2e tests and the benchmarks: each runs in its
 * own process group, so stopping it also stops what it started (wrangler runs workerd as its child), and
 * a signal sent to this process's group reaches them only through this process, which stops them in order.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createConnection, createServer } from "node:net";
import { groupAlive } from "./alive";
import { reaperFor } from "./reaper";

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

/** Whether something accepts TCP connections on `host:port`. */
export function isListening(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((ok) => {
    const socket = createConnection({ port, host });
    const done = (listening: boolean) => {
      socket.destroy();
      ok(listening);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** The last part of what a process printed: enough for an error message, bounded for a long run. */
const KEPT_OUTPUT = 64 * 1024;

export interface GroupProcess {
  readonly child: ChildProcess;
  /** The tail of what it printed on stdout and stderr, for failure messages. */
  output(): string;
  /** Whether it has exited (or been killed). */
  exited(): boolean;
  /** Settles when it exits, with its exit code (null when a signal ended it). */
  readonly exit: Promise<number | null>;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** `signal` to the whole group at once, with no grace; resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each line it prints, as it comes; e.g. to show it with a prefix. */
  onLine?: (line: string) => void;
}

/** Groups still running: killed when this process exits, so a crash leaves no orphans behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
/** Set by `stopAllGroups`: from then on nothing new is started, so a stop during start-up stays stopped. */
let closing = false;

function killRunningOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Only synchronous work runs in an exit handler: SIGKILL, no waiting.
  process.once("exit", () => {
    for (const child of running) signalGroup(child, "SIGKILL");
  });
}

/**
 * Starts `command` in a process group of its own, keeping the tail of its output. If this process exits
 * without stopping it, its group is killed.
 */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): GroupProcess {
  if (closing) throw new Error(`not starting ${command}: stopping`);
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  let partial = "";
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    log = (log + text).slice(-KEPT_OUTPUT);
    if (!options.onLine) return;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) options.onLine(line.replace(/\r$/, ""));
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  running.add(child);
  killRunningOnExit();
  if (child.pid !== undefined) reaperFor()?.watch(child.pid);
  const exit = new Promise<number | null>((ok) =>
    child.once("exit", (code) => {
      running.delete(child);
      ok(code);
    }),
  );
  // A failed spawn (missing binary) surfaces through the readiness wait rather than an unhandled error.
  child.on("error", (e) => {
    log += `\n${e.message}`;
    running.delete(child);
  });
  return {
    child,
    exit,
    output: () => log,
    exited: () => hasExited(child),
    stop: (graceMs) => stopGroup(child, graceMs),
    kill: async (signal) => {
      if (hasExited(child)) return;
      const exited = new Promise((r) => child.once("exit", r));
      signalGroup(child, signal);
      await exited;
    },
  };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

/** Resolves once group `pgid` is empty, or false at `deadline` (unix ms). */
async function groupGone(pgid: number, deadline: number): Promise<boolean> {
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Stops a process started by `spawnGroup` and everything in its group: SIGTERM to the group, SIGKILL to
 * whatever of it is left after `graceMs`; resolves once the leader has exited and the group is empty.
 */
export async function stopGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  const exited = hasExited(child) ? Promise.resolve() : new Promise((r) => child.once("exit", r));
  signalGroup(child, "SIGTERM");
  const deadline = Date.now() + graceMs;
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
  await exited;
  if (!(await groupGone(pgid, deadline))) {
    signalGroup(child, "SIGKILL");
    await groupGone(pgid, Date.now() + 2_000);
  }
  clearTimeout(timer);
}

/**
 * Stops every group still running, all at once (`stopGroup`), and refuses to start any other: for a stop
 * that comes while the stack is still starting, when a group has been spawned but not yet handed back.
 */
export async function stopAllGroups(graceMs = 5_000): Promise<void> {
  closing = true;
  await Promise.all([...running].map((child) => stopGroup(child, graceMs)));
}

/**
 * Polls `check` until it answers true; fails when `timeoutMs` passes or the process it waits for exits.
 */
export async function waitUntil(
  check: () => Promise<boolean>,
  options: { what: string; timeoutMs: number; intervalMs?: number; process?: GroupProcess },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    const child = options.process?.child;
    if (child && hasExited(child)) {
      throw new Error(`${options.what}: exited with ${child.exitCode ?? child.signalCode}`);
    }
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
  throw new Error(`${options.what}: not ready in ${options.timeoutMs} ms`);
}

/** Whether `url` answers 2xx to a GET within two seconds. */
export async function answersOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.body?.cancel();
  return res.ok;
}
