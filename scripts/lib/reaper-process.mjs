/**
 * The reaper of scripts/lib/reaper.ts, run as its own process: reads process group ids, one a line, from
 * its stdin, a pipe its parent holds. When the pipe closes, the parent has ended, stopped or not; every
 * group still there gets SIGTERM, and SIGKILL after 5 s, so nothing the parent started outlives it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const GRACE_MS = 5_000;
const groups = new Set();

/** Whether a process of the group still runs; a zombie (ended, waiting for init to reap it) does not (as scripts/lib/alive.ts). */
const alive = (pgid) => {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (!existsSync("/proc/self/stat")) return true;
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return state !== "Z" && Number(pgrp) === pgid;
    } catch {
      return false;
    }
  });
};
const signal = (pgid, name) => {
  try {
    process.kill(-pgid, name);
  } catch {
    // gone already
  }
};

// Its own group already keeps a group signal away; a terminal's hangup or Ctrl-C is for its parent to act on.
for (const name of ["SIGINT", "SIGHUP"]) process.on(name, () => {});
process.stderr.on("error", () => {});

createInterface({ input: process.stdin }).on("line", (line) => {
  const pgid = Number(line);
  if (Number.isInteger(pgid) && pgid > 1) groups.add(pgid);
});

process.stdin.once("close", async () => {
  const left = [...groups].filter(alive);
  if (left.length > 0) {
    for (const pgid of left) signal(pgid, "SIGTERM");
    const deadline = Date.now() + GRACE_MS;
    while (left.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const pgid of left.filter(alive)) signal(pgid, "SIGKILL");
    process.stderr.write(
      `its parent ended without stopping process groups ${left.join(", ")}: the reaper stopped them\n`,
    );
  }
  process.exit(0);
});
