/**
 * A `Server-Timing` header value from named phases in milliseconds (docs/api.md, "Server-Timing"), e.g.
 * `auction;dur=21, ranking;dur=0.4`. Workers' clocks advance only across I/O, so a phase of pure
 * computation can read 0.
 */
export function serverTiming(phases: Record<string, number>): string {
  return Object.entries(phases)
    .map(([name, ms]) => `${name};dur=${Math.round(ms * 10) / 10}`)
    .join(", ");
}
