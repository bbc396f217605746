import type { SourceRate, SourceValue } from "./types";

/**
 * The sources `GET /v1/rates` lists (record 2.5, docs/oracle.md): every figure the last round keeps, with
 * its true age at `now`, the time of the answer: whole seconds since the source made it, or since the
 * relay received it from a source that gives no time. A figure is never shown younger than it is.
 */
export function sourceRates(values: readonly SourceValue[], now: number): SourceRate[] {
  return values.map(({ name, value, bid, ask, at }) => ({
    name,
    value,
    bid,
    ask,
    ageSeconds: Math.max(0, Math.floor((now - at) / 1000)),
  }));
}
