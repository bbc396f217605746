/**
 * The relay beside the floors (bench/README.md, "The floor"): one row per figure with the relay's value,
 * the required-work floor's and how the relay stands against it (the target's reference), the bare
 * floor's and how the relay stands against that, the target and whether it is met.
 */

/** How a row's target reads: the relay's value over the floor's, minus it, or the relay's own value. */
export type Against = "ratio" | "difference" | "relay";

export interface Comparison {
  figure: string;
  relay: number;
  /** The required-work floor's: the target's reference. */
  floor: number;
  /** The bare floor's, the reference before the required-work floor, shown beside it. */
  bare?: number;
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

function shown(c: Comparison, floor = c.floor): string {
  if (!Number.isFinite(floor)) return "—";
  const diff = c.relay - floor;
  if (c.against === "ratio") return `${(c.relay / floor).toFixed(2)}×`;
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

/** What a table calls its two sides; the floors' run's names unless given (bench/floor-parts.ts). */
export interface TableNames {
  relay: string;
  floor: string;
  against: string;
  target: string;
}

const FLOOR_NAMES: TableNames = {
  relay: "Relay",
  floor: "Required-work floor",
  against: "Relay against it",
  target: "Target (against required)",
};

/** The rows as a Markdown table, the form bench/README.md records runs in; no bare floor's columns when no row has one. */
export function comparisonTable(rows: readonly Comparison[], names: TableNames = FLOOR_NAMES): string {
  const withBare = rows.some((c) => c.bare !== undefined);
  const cells = rows.map((c) => [
    c.figure,
    `${number(c.relay)} ${c.unit}`,
    `${number(c.floor)} ${c.unit}`,
    shown(c),
    ...(withBare ? [`${number(c.bare ?? Number.NaN)} ${c.unit}`, shown(c, c.bare ?? Number.NaN)] : []),
    targetText(c),
    met(c),
  ]);
  const head = [
    "Figure",
    names.relay,
    names.floor,
    names.against,
    ...(withBare ? ["Bare floor", "Relay against bare"] : []),
    names.target,
    "Met",
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (r: readonly string[]) => `| ${r.map((x, i) => x.padEnd(widths[i] as number)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
