/**
 * The processes that launched this one, watched. `npm start` runs `sh -c "exec node --import tsx
 * scripts/start.ts"`, so npm is the script's parent and forwards SIGTERM and SIGINT to it; but npm dies of
 * SIGHUP itself, and `tsx scripts/start.ts` run by hand puts tsx's command line in between, which forwards
 * no SIGHUP either. The script, orphaned, would keep everything it started running. So it watches its
 * launchers, its parent up to the npm process that runs it, and stops when one of them ends
 * (docs/local-stack.md, "Stopping").
 */
import { execFileSync } from "node:child_process";
import { processAlive } from "./alive";

export interface Ancestor {
  pid: number;
  ppid: number;
  /** Its command line, as `ps` shows it. */
  args: string;
}

const NPM = /(^|\/)npm(-cli\.js)?(\s|$)/;
const TSX = /(^|\/)tsx(\s|$)|\/tsx\/dist\/cli\.m?js(\s|$)/;

/**
 * Which of `ancestors` (this process's parent first) to watch: up to and including the npm process when
 * npm runs this one (`underNpm`), else the parent alone when it is tsx's command line; never a shell or
 * anything above npm, which may end while the stack is meant to keep running (`nohup npm start &`).
 */
export function launchersToWatch(ancestors: readonly Ancestor[], underNpm: boolean): number[] {
  if (underNpm) {
    const npm = ancestors.findIndex((a) => NPM.test(a.args));
    if (npm >= 0) return ancestors.slice(0, npm + 1).map((a) => a.pid);
  }
  const parent = ancestors[0];
  return parent && TSX.test(parent.args) ? [parent.pid] : [];
}

/** This process's ancestors, its parent first, read with `ps` (Linux and macOS); at most `depth` of them. */
export function ancestors(depth = 8): Ancestor[] {
  const chain: Ancestor[] = [];
  let pid = process.ppid;
  while (pid > 1 && chain.length < depth) {
    let line: string;
    try {
      line = execFileSync("ps", ["-o", "ppid=", "-o", "args=", "-p", String(pid)], { encoding: "utf8" }).trim();
    } catch {
      break;
    }
    const match = /^(\d+)\s+(.*)$/s.exec(line);
    if (!match) break;
    const ppid = Number(match[1]);
    chain.push({ pid, ppid, args: match[2] ?? "" });
    pid = ppid;
  }
  return chain;
}

/**
 * Calls `onGone` once, with the pid, when one of this process's launchers ends (checked every 500 ms).
 * Returns the launchers watched, and a function that stops watching.
 */
export function watchLaunchers(onGone: (pid: number) => void): { pids: number[]; stop: () => void } {
  const pids = launchersToWatch(ancestors(), process.env.npm_lifecycle_event !== undefined);
  const timer = setInterval(() => {
    const gone = pids.find((pid) => !processAlive(pid));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, 500);
  timer.unref();
  return { pids, stop: () => clearInterval(timer) };
}
