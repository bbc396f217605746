/** How the explorer writes numbers, amounts, addresses and times. Pure: unit-tested in Node. */

const grouping = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/**
 * A base-unit amount (a decimal string, docs/api.md "Amounts") in whole tokens, exactly: no float ever
 * holds the amount, so 18-decimal tokens and uint256 allowances print to the unit.
 *
 * @param {string} amount base units
 * @param {number} decimals
 */
export function units(amount, decimals) {
  const negative = amount.startsWith("-");
  const digits = (negative ? amount.slice(1) : amount).replace(/^0+(?=\d)/, "");
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/**
 * A figure `units` wrote, cut to `digits` significant digits after its leading zeros (`0.000195208666`
 * → `0.0001952`): for the keeper's books, whose wei amounts carry 18 decimals nobody reads. The integer
 * part is never cut; digits are dropped, not rounded, so the figure never grows.
 *
 * @param {string} text as `units` returns it
 * @param {number} digits
 */
export function significant(text, digits) {
  const [whole, fraction = ""] = text.split(".");
  const wholeDigits = whole.replace(/[^0-9]/g, "").replace(/^0+/, "").length;
  const keep = wholeDigits > 0 ? Math.max(0, digits - wholeDigits) : fraction.search(/[1-9]/) + digits;
  const cut = fraction.search(/[1-9]/) === -1 ? "" : fraction.slice(0, Math.max(0, keep)).replace(/0+$/, "");
  return `${whole}${cut ? `.${cut}` : ""}`;
}

/** A rate or price such as a band's mid: grouped, at most 6 decimals. */
export const number = (value) => grouping.format(value);

/** `0x7099…79C8`: enough to tell addresses apart at a glance. */
export function shortAddress(value) {
  return value.length > 14 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value;
}

/** A rate in [0, 1] as a percentage; null (no samples yet) as a dash. */
export function percent(rate) {
  return rate === null || rate === undefined ? "—" : `${(rate * 100).toFixed(1)} %`;
}

/**
 * How long ago, coarsely: `4 s ago`, `3 min ago`, `2 h ago`, `5 d ago`.
 *
 * @param {string | number} at an ISO timestamp or unix milliseconds
 * @param {number} now unix milliseconds
 */
export function ago(at, now) {
  const seconds = Math.max(0, Math.round((now - new Date(at).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** `05:05:17.093 UTC`: the same on every reader's screen, to the millisecond the timeline records. */
export function clock(at) {
  return `${new Date(at).toISOString().slice(11, 23)} UTC`;
}

/** `2026-11-23 05:05:17 UTC`. */
export function dateTime(at) {
  return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** Milliseconds from one timestamp to another, as `+105 ms` or `+2.1 s`. */
export function elapsed(from, to) {
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return ms < 1000 ? `+${ms} ms` : `+${(ms / 1000).toFixed(1)} s`;
}
