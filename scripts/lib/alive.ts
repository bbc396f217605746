/** Whether a process, or a process group, is still running (scripts/lib/processes.ts, the start-and-stop check). */
import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * Whether any process of group `pgid` is still running (a group outlives its leader: workerd, wrangler's
 * child). Zombies do not count: an orphan that has ended waits for init to reap it, which may take a while.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    // ESRCH: none left; EPERM: the id now belongs to someone else's group, so ours are gone too.
    return false;
  }
  if (!existsSync("/proc/self/stat")) return true;
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const fields = statFields(Number(entry));
    return fields !== null && fields[0] !== "Z" && Number(fields[2]) === pgid;
  });
}

/** The fields of /proc/<pid>/stat after the command's name: state, ppid, pgrp, …; null when it is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * Whether process `pid` is running: a zombie (ended, not yet reaped by its parent) counts as ended. Reads
 * its state from /proc where there is one, else asks with signal 0.
 */
export function processAlive(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    const fields = statFields(pid);
    return fields !== null && fields[0] !== "Z";
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
