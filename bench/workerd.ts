/**
 * The Worker behind `wrangler dev`, reached without wrangler's proxy, and its process's CPU time
 * (bench/README.md, "How a run measures"). Linux only: it reads /proc.
 *
 * `wrangler dev` runs two workerd processes as children of its Node process: one serves wrangler's proxy
 * on the port it was given, the other the Worker itself on a loopback port of its own (Miniflare's
 * `ready` URL, which the proxy forwards every request and WebSocket to). That second process is the
 * runtime a deployed Worker would be; its entry socket answers the Worker's routes directly.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface WorkerRuntime {
  /** The Worker's own entry socket, without wrangler's proxy in front. */
  directUrl: string;
  /** The workerd process(es) serving the Worker: the ones whose CPU time is the relay's. */
  workerPids: number[];
  /** The workerd process of wrangler's proxy, for reference. */
  proxyPid: number;
}

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times (`getconf CLK_TCK`). */
export const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
}

/** /proc/<pid>/stat (proc(5)): the name is in parentheses and may hold spaces, so fields count after it. */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  // After ")": state(3) ppid(4) ... utime(14) stime(15); index 0 here is field 3.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(" ");
  return { comm, ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

function pids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Inodes of the TCP sockets listening on loopback, by port (/proc/net/tcp, state 0A is LISTEN). */
function listeningInodes(): Map<string, number> {
  const byInode = new Map<string, number>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] !== "0A" || !cols[1] || !cols[9]) continue;
      byInode.set(cols[9], Number.parseInt(cols[1].split(":")[1] ?? "", 16));
    }
  }
  return byInode;
}

/** The loopback TCP ports a process listens on. */
function listeningPorts(pid: number, listening: Map<string, number>): number[] {
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const fd of fds) {
    let target = "";
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    const port = inode ? listening.get(inode) : undefined;
    if (port !== undefined) ports.push(port);
  }
  return ports;
}

/** How to tell the Worker's entry socket from workerd's other ports: a path only the Worker answers. */
export interface WorkerProbe {
  path: string;
  /** Whether an answer's body is the Worker's. */
  isWorkers(body: string): boolean;
}

/** The relay answers `GET /v1/config` with its configuration record. */
export const RELAY_PROBE: WorkerProbe = { path: "/v1/config", isWorkers: (body) => body.startsWith("{") };

async function answersProbe(url: string, probe: WorkerProbe): Promise<boolean> {
  try {
    const res = await fetch(`${url}${probe.path}`, { signal: AbortSignal.timeout(2_000) });
    const body = await res.text();
    return res.ok && probe.isWorkers(body);
  } catch {
    return false;
  }
}

/**
 * The Worker's runtime behind the `wrangler dev` listening on `relayUrl`: the workerd sibling of the
 * proxy's workerd (same wrangler parent) that answers `probe` (default the relay's `GET /v1/config`) on a
 * port of its own.
 */
export async function findWorkerRuntime(relayUrl: string, probe: WorkerProbe = RELAY_PROBE): Promise<WorkerRuntime> {
  const proxyPort = Number(new URL(relayUrl).port);
  const listening = listeningInodes();
  const all = pids();
  const stats = new Map(all.map((pid) => [pid, procStat(pid)] as const));
  const workerds = all.filter((pid) => stats.get(pid)?.comm === "workerd");
  const proxyPid = workerds.find((pid) => listeningPorts(pid, listening).includes(proxyPort));
  if (proxyPid === undefined) throw new Error(`no workerd listens on ${relayUrl}: is wrangler dev running there?`);
  const wrangler = stats.get(proxyPid)?.ppid;
  const siblings = workerds.filter((pid) => pid !== proxyPid && stats.get(pid)?.ppid === wrangler);
  for (const pid of siblings) {
    for (const port of listeningPorts(pid, listening)) {
      const url = `http://127.0.0.1:${port}`;
      if (await answersProbe(url, probe)) return { directUrl: url, workerPids: siblings, proxyPid };
    }
  }
  throw new Error(`wrangler dev on ${relayUrl}: none of its workerd processes (${siblings}) answers GET ${probe.path}`);
}

/** CPU time the whole machine has used so far (every core, every process), in milliseconds. */
export function machineCpuMs(): number {
  const [, ...fields] = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are work.
  const ticks = fields.slice(0, 8).map(Number);
  const busy = ticks.reduce((a, b) => a + b, 0) - (ticks[3] ?? 0) - (ticks[4] ?? 0);
  return (busy * 1000) / CLOCK_TICKS;
}

/** CPU time (user + system) the processes have used so far, in milliseconds. */
export function cpuMs(processes: readonly number[]): number {
  let ticks = 0;
  for (const pid of processes) {
    const stat = procStat(pid);
    if (!stat) throw new Error(`process ${pid} is gone`);
    ticks += stat.cpuTicks;
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
