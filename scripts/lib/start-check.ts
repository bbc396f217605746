/**
 * The pure parts of scripts/check-start-stop.ts: which lines of a log are errors or stack traces, the
 * cycles to run, and which processes descend from `npm start`.
 */

/**
 * A stop to try: the signal, sent to npm alone, to its whole process group (as a process manager may), or
 * to the script's own process (a SIGKILL there is what tsx's command line sends a child it thinks hung).
 */
export interface Cycle {
  signal: "SIGTERM" | "SIGINT" | "SIGHUP" | "SIGKILL";
  to: "npm" | "group" | "script";
}

/**
 * Three SIGTERM stops (npm alone and its group), one SIGINT (Ctrl-C reaches the group), two SIGHUP, and a
 * SIGKILL of the script.
 */
export const DEFAULT_CYCLES = "TERM:group,TERM:npm,TERM:group,INT:group,HUP:npm,HUP:group,KILL:script";

/** `TERM:npm,INT:group` → the cycles; throws naming a bad entry. */
export function parseCycles(spec: string): Cycle[] {
  return spec.split(",").map((entry) => {
    const [signal, to] = entry.trim().split(":");
    if (!["TERM", "INT", "HUP", "KILL"].includes(signal ?? "") || (to !== "npm" && to !== "group" && to !== "script")) {
      throw new Error(
        `--cycles: ${JSON.stringify(entry)} is not SIGNAL:TARGET (TERM, INT, HUP or KILL; npm, group or script)`,
      );
    }
    return { signal: `SIG${signal}` as Cycle["signal"], to };
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a colour code
const COLOUR = /\x1b\[[0-9;]*m/g;
/** wrangler's and workerd's error marks, a level word of the relay's line format, or an error's own name. */
const ERROR_LINE = /✘|\[ERROR\]|(^|\s)ERROR\s|\b[A-Za-z]*Error: /;
/** A line of a stack trace: V8's `at f (file:1:2)`, or workerd's `stack: …` of addresses. */
const STACK_LINE = /^\s*(\[[\w-]+\]\s+)?(at\s+\S.*(\(.*\)|:\d+:\d+)\s*$|stack: )/;

/** The lines of `log` that are an error or part of a stack trace, colour codes removed. */
export function problemLines(log: string): string[] {
  return log
    .split("\n")
    .map((line) => line.replace(COLOUR, ""))
    .filter((line) => ERROR_LINE.test(line) || STACK_LINE.test(line));
}

export interface PsRow {
  pid: number;
  ppid: number;
  args: string;
}

/** The rows of `ps -A -o pid= -o ppid= -o args=`. */
export function parsePs(text: string): PsRow[] {
  return text.split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s*(.*)$/.exec(line);
    return match ? [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? "" }] : [];
  });
}

/** The process that runs scripts/start.ts itself: the deepest of `pids` whose command line names it. */
export function scriptProcess(rows: readonly PsRow[], pids: readonly number[]): number | null {
  const named = rows.filter((r) => pids.includes(r.pid) && r.args.includes("scripts/start.ts"));
  const deepest = named.find((r) => !named.some((c) => c.ppid === r.pid));
  return deepest?.pid ?? null;
}

/** `root` and every process below it, by parent links. */
export function descendants(rows: readonly PsRow[], root: number): number[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const row of rows) if (row.ppid === found[i] && !found.includes(row.pid)) found.push(row.pid);
  }
  return found;
}
