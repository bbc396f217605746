import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { groupAlive } from "../../scripts/lib/alive";
import { spawnGroup, stopGroup } from "../../scripts/lib/processes";

const root = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "stack-processes-"));
/** Groups a failing case may leave behind. */
const groups: number[] = [];
afterAll(() => {
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function gone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !groupAlive(pgid);
}

/**
 * A parent that starts a group (a shell with a child of its own, as wrangler has workerd), with or without
 * the reaper, prints the group's id and waits: the test then SIGKILLs it, as a process manager would.
 */
async function parentWithGroup(reaper: boolean): Promise<{ kill: () => void; pgid: number }> {
  const script = join(dir, `parent-${reaper}.ts`);
  writeFileSync(
    script,
    [
      `import { spawnGroup } from ${JSON.stringify(join(root, "scripts/lib/processes.ts"))};`,
      `import { startReaper } from ${JSON.stringify(join(root, "scripts/lib/reaper.ts"))};`,
      reaper ? "startReaper();" : "",
      `const group = spawnGroup("sh", ["-c", "sleep 60 & sleep 60"]);`,
      "console.log(group.child.pid);",
      "setInterval(() => {}, 1000);",
    ].join("\n"),
  );
  const parent = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const pgid = await new Promise<number>((ok) => parent.stdout.once("data", (d) => ok(Number(String(d).trim()))));
  groups.push(pgid);
  return { pgid, kill: () => parent.kill("SIGKILL") };
}

describe("process groups of the local stack", () => {
  it("stopGroup waits until the whole group has ended, not only its leader", async () => {
    // The leader exits on SIGTERM at once; its child ignores SIGTERM, as a slow workerd would take its time.
    const group = spawnGroup("sh", [
      "-c",
      "(trap '' TERM; sleep 60) & trap 'exit 0' TERM; while :; do sleep 0.05; done",
    ]);
    const pgid = group.child.pid as number;
    groups.push(pgid);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await stopGroup(group.child, 500);
    expect(groupAlive(pgid)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("the reaper stops a group whose parent was SIGKILLed; without it the group outlives the parent", async () => {
    const bare = await parentWithGroup(false);
    bare.kill();
    expect(await gone(bare.pgid, 1_500)).toBe(false);

    const guarded = await parentWithGroup(true);
    expect(groupAlive(guarded.pgid)).toBe(true);
    guarded.kill();
    expect(await gone(guarded.pgid, 7_000)).toBe(true);
  }, 20_000);
});
