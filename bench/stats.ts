import { availableParallelism, loadavg } from "node:os";

/** Percentile of a sample (nearest rank); NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** `figure  target  ok|MISSED`, for the summary table. */
export function verdict(name: string, value: number, target: number, better: "lower" | "higher", unit: string): string {
  const ok = better === "lower" ? value <= target : value >= target;
  const sign = better === "lower" ? "≤" : "≥";
  return `${name.padEnd(44)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(8)} target ${sign} ${target} ${unit}  ${ok ? "ok" : "MISSED"}`;
}

/** A summary line for a figure the table reports without a target. */
export function reported(name: string, value: number, unit: string): string {
  return `${name.padEnd(44)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(8)} reported`;
}

/** A summary line for a figure that could not be measured in this run, with the reason. */
export function notMeasured(name: string, why: string): string {
  return `${name.padEnd(44)} ${"—".padStart(8)} ${"".padEnd(8)} not measured: ${why}`;
}

/** The machine the figures come from: a shared one skews them, so every run says how busy it was. */
export function machineLoad(): string {
  const [one, five] = loadavg();
  return `machine: ${availableParallelism()} cores, load average ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`;
}

/** A `Server-Timing` header's phases, name → milliseconds (docs/api.md, "Server-Timing"). */
export function parseServerTiming(header: string | null): Map<string, number> {
  const phases = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = params.map((p) => p.trim()).find((p) => p.startsWith("dur="));
    if (name && dur) phases.set(name, Number(dur.slice(4)));
  }
  return phases;
}

/**
 * The relay's phases of many responses, from their `Server-Timing` headers (docs/api.md,
 * "Server-Timing"): `add` one header at a time, `describe` each phase's p50.
 */
export class Phases {
  private readonly byName = new Map<string, number[]>();

  add(header: string | null): void {
    for (const [name, ms] of parseServerTiming(header)) {
      const list = this.byName.get(name) ?? [];
      list.push(ms);
      this.byName.set(name, list);
    }
  }

  describe(): string {
    return [...this.byName].map(([name, values]) => `${name} ${percentile(values, 50).toFixed(1)}`).join(", ");
  }
}

/** A `fetch` that hands each response's `Server-Timing` header to `phases`. */
export const fetchTimed =
  (phases: Phases): typeof fetch =>
  async (input, init) => {
    const res = await fetch(input, init);
    phases.add(res.headers.get("server-timing"));
    return res;
  };

/**
 * How long a side-by-side run waits before each request it times one at a time, so that everything either
 * Worker does behind its previous answers is done first and lands in no timed request: the request's log
 * line (5 ms on: docs/operations.md, "Logs"), the losers' signature checks and `result` frames (50 ms on:
 * src/auction/house.ts) and the write-behind copy to D1 (100 ms on: docs/architecture.md, "Write-behind").
 * That work is in the runs under load (bench/README.md, "How a run measures").
 */
export const QUIET_MS = 150;

/** Waits `QUIET_MS`. */
export const quiet = (): Promise<void> => new Promise((r) => setTimeout(r, QUIET_MS));
