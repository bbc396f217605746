/**
 * The geometry of the resolver page's 7-day chart (docs/explorer.md): each series of `days`
 * (docs/reliability.md, "A resolver's record") as an SVG path, drawn without a chart library. Pure:
 * unit-tested in Node.
 */

/**
 * @typedef {{width: number, height: number, top: number, right: number, bottom: number, left: number}} Box
 * the SVG's size and the margins around the plot
 */

/** The x of the i-th of n points, spread evenly across the plot; one point sits in the middle. */
export function xAt(box, i, n) {
  const span = box.width - box.left - box.right;
  return round(n <= 1 ? box.left + span / 2 : box.left + (span * i) / (n - 1));
}

/** The y of a value between 0 and `max`, 0 at the bottom of the plot; values past `max` are held at the top. */
export function yAt(box, value, max) {
  const span = box.height - box.top - box.bottom;
  const share = max > 0 ? Math.min(Math.max(value / max, 0), 1) : 0;
  return round(box.top + span * (1 - share));
}

/**
 * A series as path data: a line through its values, broken where a day has none (null), so a day
 * without samples is never drawn as zero.
 *
 * @param {Array<number | null>} values
 * @param {Box} box
 * @param {number} max the value at the top of the plot
 */
export function linePath(values, box, max) {
  let d = "";
  let drawing = false;
  values.forEach((v, i) => {
    if (v === null || v === undefined || !Number.isFinite(v)) {
      drawing = false;
      return;
    }
    d += `${d ? " " : ""}${drawing ? "L" : "M"}${xAt(box, i, values.length)} ${yAt(box, v, max)}`;
    drawing = true;
  });
  return d;
}

/** The points of a series that have a value, so a day alone between two gaps still shows as a dot. */
export function dotsOf(values, box, max) {
  return values.flatMap((v, i) =>
    v === null || v === undefined || !Number.isFinite(v)
      ? []
      : [{ i, x: xAt(box, i, values.length), y: yAt(box, v, max), value: v }],
  );
}

/**
 * The top of the latency plot: the highest p99 of the days, rounded up to 1, 2 or 5 times a power of
 * ten, and 100 ms when no day has a reply.
 *
 * @param {Array<{replyLatency: {p50Ms: number, p99Ms: number} | null}>} days
 */
export function latencyTop(days) {
  const highest = Math.max(0, ...days.map((d) => d.replyLatency?.p99Ms ?? 0));
  if (highest <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(highest));
  const step = [1, 2, 5, 10].find((s) => s * power >= highest) ?? 10;
  return step * power;
}

/** A day of `days` (`2026-11-24`) as the chart labels it: `24 Nov`. */
export function dayLabel(day) {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  return `${at.getUTCDate()} ${at.toLocaleString("en-GB", { month: "short", timeZone: "UTC" })}`;
}

const round = (n) => Math.round(n * 10) / 10;
