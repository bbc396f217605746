/**
 * Starts and stops `npm start` as a newcomer and a process manager would, and checks what is left
 * (docs/local-stack.md, "Checking start and stop"). For each cycle: `npm start` in a session of its own,
 * its log to `.wrangler/start-check/cycle-N.log`; once the stack is up (and `--hold` seconds more, the
 * first cycle `--first-hold`), the cycle's signal to npm alone or to its whole process group; then the
 * time until every process it started has ended and no port of the stack is listening. Every log must
 * hold no error line and no stack trace. Last, a port of the stack taken beforehand must stop `npm start`
 * at once, with a message naming who holds it.
 *
 *   npx tsx scripts/check-start-stop.ts [--cycles TERM:group,TERM:npm,…] [--hold 10] [--first-hold 60]
 *
 * Exit 1 when a cycle leaves anything behind, takes more than 10 s to stop, or logs an error.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { processAlive } from "./lib/alive";
import { root } from "./lib/dev-config";
import { describeListeners, listenersOn } from "./lib/listeners";
import { isListening } from "./lib/processes";
import {
  type Cycle,
  DEFAULT_CYCLES,
  descendants,
  parseCycles,
  parsePs,
  problemLines,
  scriptProcess,
} from "./lib/start-check";

/** The stack's ports: relay, anvil, Solana chain, rate source; and wrangler's default inspector. */
const PORTS = [8787, 8545, 8899, 8790, 9229];
const STOP_LIMIT_MS = 10_000;
const UP_TIMEOUT_MS = 300_000;
const UP_LINE = "The local stack is up.";
const QUIET_LINE = "cannot be reached from here";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function listening(ports: readonly number[]): Promise<number[]> {
  const taken = await Promise.all(ports.map(async (p) => ((await isListening(p)) ? p : null)));
  return taken.filter((p): p is number => p !== null);
}

interface Outcome {
  ok: boolean;
  line: string;
}

async function runCycle(n: number, cycle: Cycle, holdMs: number, ports: number[]): Promise<Outcome> {
  const dir = join(root, ".wrangler/start-check");
  mkdirSync(dir, { recursive: true });
  const logPath = join(dir, `cycle-${n}.log`);
  const out = openSync(logPath, "w");
  const startedAt = Date.now();
  const npm = spawn("npm", ["start"], { cwd: root, detached: true, stdio: ["ignore", out, out] });
  const pid = npm.pid;
  if (pid === undefined) return { ok: false, line: "npm did not start" };
  let exited = false;
  npm.once("exit", () => {
    exited = true;
  });
  const log = () => readFileSync(logPath, "utf8");
  while (!log().includes(UP_LINE) && !exited && Date.now() - startedAt < UP_TIMEOUT_MS) await sleep(500);
  const upMs = Date.now() - startedAt;
  const up = log().includes(UP_LINE);
  if (up) await sleep(holdMs);
  // Everything npm start runs now, to be waited for: npm, the script, anvil, wrangler, workerd, the reaper.
  const rows = parsePs(execFileSync("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "args="], { encoding: "utf8" }));
  const started = descendants(rows, pid);
  const target = { npm: pid, group: -pid, script: scriptProcess(rows, started) ?? pid }[cycle.to];
  const signalledAt = Date.now();
  try {
    process.kill(target, cycle.signal);
  } catch {
    // npm already ended (a failed start)
  }
  let left = started.filter(processAlive);
  let open = await listening(ports);
  while ((left.length > 0 || open.length > 0) && Date.now() - signalledAt < 3 * STOP_LIMIT_MS) {
    await sleep(100);
    left = started.filter(processAlive);
    open = await listening(ports);
  }
  const stopMs = Date.now() - signalledAt;
  const leftover = open.map((p) => `${p}: ${describeListeners(listenersOn(p))}`);
  // What a failed stop left is killed here, so the next cycle starts on free ports.
  for (const p of left) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // gone
    }
  }
  for (let i = 0; i < 50 && (await listening(ports)).length > 0; i++) await sleep(100);
  const text = log();
  const problems = problemLines(text);
  const quiet = text.split("\n").filter((l) => l.includes(QUIET_LINE)).length;
  const ok = up && left.length === 0 && open.length === 0 && stopMs <= STOP_LIMIT_MS && problems.length === 0;
  const line =
    `cycle ${n} ${cycle.signal} to ${{ npm: "npm alone", group: "npm's process group", script: "the script" }[cycle.to]}: ` +
    `${up ? `up in ${seconds(upMs)}` : "never up"}, ${text.split("\n").length - 1} lines, ` +
    `${problems.length} error or stack lines, ${quiet} unreachable-source line; ` +
    (left.length === 0 && open.length === 0
      ? `stopped in ${seconds(stopMs)}, nothing left`
      : `after ${seconds(stopMs)} still running: ${left.length} of ${started.length} processes, listening: ${leftover.join("; ") || "none"}`) +
    (problems.length ? `\n  ${problems.slice(0, 6).join("\n  ")}` : "");
  return { ok, line };
}

/** A stack port held beforehand: `npm start` must stop at once, naming the holder. */
async function checkStalePort(): Promise<Outcome> {
  const server = createServer();
  const held = await new Promise<boolean>((ok) => {
    server.once("error", () => ok(false));
    server.listen(8787, "127.0.0.1", () => ok(true));
  });
  if (!held) return { ok: false, line: "port 8787 held beforehand: not checked, 8787 is still taken" };
  const npm = spawn("npm", ["start"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  npm.stdout.on("data", (c) => (text += c));
  npm.stderr.on("data", (c) => (text += c));
  const code = await new Promise<number | null>((ok) => npm.once("exit", ok));
  server.close();
  const named = text.includes(`127.0.0.1:8787 is taken by node (pid ${process.pid})`);
  return {
    ok: code !== 0 && named,
    line: `port 8787 held beforehand: exit ${code}, ${named ? "names the holder" : "does not name the holder"}: ${text.trim().split("\n").at(-1)}`,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cycles: { type: "string", default: DEFAULT_CYCLES },
      hold: { type: "string", default: "10" },
      "first-hold": { type: "string", default: "60" },
    },
  });
  const cycles = parseCycles(values.cycles);
  const busy = await listening(PORTS.slice(0, 4));
  if (busy.length > 0) {
    const who = busy.map((p) => `${p}: ${describeListeners(listenersOn(p))}`).join("; ");
    throw new Error(`the stack's ports must be free before the check: ${who}`);
  }
  // wrangler's inspector port counts only when nothing else held it beforehand.
  const ports = [...PORTS.slice(0, 4), ...((await listening([9229])).length ? [] : [9229])];
  const outcomes: Outcome[] = [];
  for (const [i, cycle] of cycles.entries()) {
    const hold = Number(i === 0 ? values["first-hold"] : values.hold) * 1000;
    const outcome = await runCycle(i + 1, cycle, hold, ports);
    console.log(outcome.line);
    outcomes.push(outcome);
  }
  const stale = await checkStalePort();
  console.log(stale.line);
  outcomes.push(stale);
  const failed = outcomes.filter((o) => !o.ok).length;
  console.log(failed === 0 ? "all clean" : `${failed} of ${outcomes.length} checks failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e: unknown) => {
  console.error(`check-start-stop: ${(e as Error).message}`);
  process.exit(1);
});
