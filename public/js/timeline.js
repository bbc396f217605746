/**
 * A quote's timeline as the page holds it: entries by their position (the stream's event id, 1 for the
 * first), merged from the quote record and the event stream (docs/explorer.md). Pure: unit-tested in Node.
 */

/** Every timeline event the stream can name (src/schemas/quote.ts, `TimelineEventName`), and `cancelled`. */
export const TIMELINE_EVENTS = [
  "requested",
  "quoted",
  "signed",
  "submitted",
  "requote",
  "fallback",
  "failed",
  "settled",
  "final",
  "expired",
  "cancelled",
];

/** The events after which the relay closes a quote's stream (docs/api.md, "Event streams"). */
export const TERMINAL_EVENTS = new Set(["final", "failed", "cancelled", "expired"]);

/**
 * Whether nothing more can happen to the quote, by its record: final, failed, cancelled, or expired (a
 * fill already on its way when it expired moves it on to `submitted`).
 */
export const quoteIsOver = (quote) => quote.final || ["failed", "cancelled", "expired"].includes(quote.status);

/**
 * The timeline with `entry` at `position` (1-based); entries already there are kept, so a replayed
 * history and a record read at the same time agree.
 *
 * @template T
 * @param {T[]} timeline
 * @param {number} position
 * @param {T} entry
 * @returns {T[]}
 */
export function placeEntry(timeline, position, entry) {
  if (!Number.isInteger(position) || position < 1 || timeline[position - 1] !== undefined) return timeline;
  const next = timeline.slice();
  next[position - 1] = entry;
  return next;
}

/**
 * Both timelines in one: the record's entries fill the positions the stream has not delivered yet.
 *
 * @template T
 * @param {T[]} held
 * @param {T[]} read
 * @returns {T[]}
 */
export function mergeTimeline(held, read) {
  return read.reduce((acc, entry, i) => placeEntry(acc, i + 1, entry), held);
}

/** The entries in order, without the holes a resumed stream could leave for a moment. */
export const entriesOf = (timeline) => timeline.filter((e) => e !== undefined);

/**
 * Where the quote stands: its latest event (`quoted`, …, `final`), or `cancelled`, which the record's
 * status says but its timeline has no entry for.
 */
export function stageOf(timeline, status) {
  const entries = entriesOf(timeline);
  if (status === "cancelled" && !entries.some((e) => e.event === "cancelled")) return "cancelled";
  return entries.length ? entries[entries.length - 1].event : "unknown";
}

/** What an offer's status means to a reader: `won`, `lost`, or steered away from winning, and why. */
export function outcomeOf(status) {
  if (status === "outside_band") return { label: "steered: outside the band", kind: "steered" };
  if (status === "demoted") return { label: "steered: demoted", kind: "steered" };
  return { label: status, kind: status };
}

/** A timeline entry's detail in a few words: the tx hash, block, latency, reason. */
export function describeDetail(entry) {
  const d = entry.detail ?? {};
  const parts = [];
  if (typeof d.latencyMs === "number") parts.push(`auction ${d.latencyMs} ms`);
  if (typeof d.txHash === "string") parts.push(`tx ${d.txHash}`);
  if (typeof d.block === "number") parts.push(`block ${d.block}`);
  if (typeof d.reason === "string") parts.push(d.reason);
  if (typeof d.executionId === "string") parts.push(`execution ${d.executionId}`);
  return parts.join(" · ");
}
