/**
 * The relay beside the floor (bench/README.md, "The floor"): one row per figure with both values,
 * how the relay stands against the floor, the target and whether it is met.
 */

/** How a row's target reads: the relay's value over the floor's, minus it, or the relay's own value. */
export type Against = "ratio" | "difference" | "relay";

export interface Comparison {
  figure: string;
  relay: number;
  floor: number;
  unit: string;
  against: Against;
  /** No target: reported only. */
  target?: { better: "lower" | "higher"; value: number };
}

function measured(c: Comparison): number {
  if (c.against === "ratio") return c.relay / c.floor;
  if (c.against === "difference") return c.relay - c.floor;
  return c.relay;
}

function shown(c: Comparison): string {
  const diff = c.relay - c.floor;
  if (c.against === "ratio") return `${(c.relay / c.floor).toFixed(2)}×`;
  return `${diff >= 0 ? "+" : ""}${diff.toFixed(2)} ${c.unit}`;
}

function targetText(c: Comparison): string {
  if (!c.target) return "reported";
  const sign = c.target.better === "lower" ? "≤" : "≥";
  if (c.against === "ratio") return `${sign} ${c.target.value}×`;
  if (c.against === "difference") return `floor ${sign === "≤" ? "+" : "−"} ${c.target.value} ${c.unit}`;
  return `relay ${sign} ${c.target.value} ${c.unit}`;
}

function met(c: Comparison): string {
  if (!c.target) return "—";
  const value = measured(c);
  if (!Number.isFinite(value)) return "not measured";
  const ok = c.target.better === "lower" ? value <= c.target.value : value >= c.target.value;
  return ok ? "met" : "not met";
}

const number = (x: number) => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2)) : "—");

/** The rows as a Markdown table, the form bench/README.md records runs in. */
export function comparisonTable(rows: readonly Comparison[]): string {
  const cells = rows.map((c) => [
    c.figure,
    `${number(c.relay)} ${c.unit}`,
    `${number(c.floor)} ${c.unit}`,
    shown(c),
    targetText(c),
    met(c),
  ]);
  const head = ["Figure", "Relay", "Floor", "Relay against floor", "Target", "Met"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (r: readonly string[]) => `| ${r.map((x, i) => x.padEnd(widths[i] as number)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
