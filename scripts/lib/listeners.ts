/**
 * Who listens on a loopback port: for `npm start`, which names what holds one of its ports (an earlier
 * stack left running, say) rather than failing later, and for scripts/check-start-stop.ts. Asks `ss`
 * (Linux), else `lsof` (macOS); either may be missing or see no process of another user: then no one is
 * named, and the port is still reported as taken.
 */
import { execFileSync } from "node:child_process";

export interface Listener {
  pid: number;
  command: string;
}

/** The processes of `ss -ltnp`'s `users:(("workerd",pid=123,fd=20),…)` columns. */
export function parseSsListeners(text: string): Listener[] {
  return [...text.matchAll(/\("([^"]*)",pid=(\d+),fd=\d+\)/g)].map((m) => ({
    command: m[1] ?? "",
    pid: Number(m[2]),
  }));
}

/** The processes of `lsof -F pc` output: a `p<pid>` line, then its `c<command>` line. */
export function parseLsofListeners(text: string): Listener[] {
  const found: Listener[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("p")) found.push({ pid: Number(line.slice(1)), command: "" });
    const last = found.at(-1);
    if (line.startsWith("c") && last) last.command = line.slice(1);
  }
  return found;
}

const unique = (listeners: Listener[]) => [...new Map(listeners.map((l) => [l.pid, l])).values()];

/** The processes listening on TCP `port` that this user may see; empty when none, or none can be seen. */
export function listenersOn(port: number): Listener[] {
  const ask = (command: string, args: string[]) => {
    try {
      return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      return null;
    }
  };
  const ss = ask("ss", ["-Hltnp", `sport = :${port}`]);
  if (ss !== null) return unique(parseSsListeners(ss));
  const lsof = ask("lsof", ["-nP", `-iTCP:${port}`, "-sTCP:LISTEN", "-F", "pc"]);
  return lsof === null ? [] : unique(parseLsofListeners(lsof));
}

/** "workerd (pid 123)", or what to do when no process can be named. */
export function describeListeners(listeners: readonly Listener[]): string {
  if (listeners.length === 0) return "a process this user cannot name (try `ss -ltnp` or `lsof -i`)";
  return listeners.map((l) => `${l.command || "a process"} (pid ${l.pid})`).join(", ");
}
