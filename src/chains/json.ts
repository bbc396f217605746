/** Typed data carries bigints; on the wire and in D1 they are decimal strings. */
export function withBigintsAsStrings<T>(value: T): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(withBigintsAsStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withBigintsAsStrings(v);
    return out;
  }
  return value;
}
