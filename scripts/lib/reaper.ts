/**
 * A guard for the process groups `spawnGroup` starts (scripts/lib/processes.ts): a small detached process
 * holding a pipe from this one, told each group as it starts. This process stops its groups itself; the
 * reaper acts only when it ends without doing so: a SIGKILL (a process manager's, after its stop timeout;
 * tsx's command line, which kills a child that does not acknowledge a forwarded signal within 30 ms; the
 * OOM killer) ends it with no chance to, and the groups, each in a session of their own making, would
 * otherwise keep serving on their ports. See docs/local-stack.md, "Stopping".
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { join } from "node:path";

export interface Reaper {
  /** From now on, group `pgid` is stopped if this process ends without stopping it. */
  watch(pgid: number): void;
}

let reaper: Reaper | null = null;

/** Starts the reaper for this process (once); `spawnGroup` then tells it every group it starts. */
export function startReaper(): Reaper {
  if (reaper) return reaper;
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, "reaper-process.mjs")], {
    stdio: ["pipe", "ignore", "inherit"],
    detached: true,
  });
  // Neither the process nor its pipe keeps this one running; the pipe closes when this process ends.
  child.unref();
  (child.stdin as Socket | null)?.unref();
  child.stdin?.on("error", () => {});
  reaper = { watch: (pgid) => child.stdin?.write(`${pgid}\n`) };
  return reaper;
}

/** The reaper, when `startReaper` has started one. */
export function reaperFor(): Reaper | null {
  return reaper;
}
