/** Resource ids: a short prefix and 16 random bytes in hex, e.g. `q_3f2a…`. */
export type IdPrefix = "q" | "rfq" | "x" | "lo";

const patterns: Record<IdPrefix, RegExp> = {
  q: /^q_[0-9a-f]{32}$/,
  rfq: /^rfq_[0-9a-f]{32}$/,
  x: /^x_[0-9a-f]{32}$/,
  lo: /^lo_[0-9a-f]{32}$/,
};

export function newId(prefix: IdPrefix): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `${prefix}_${hex}`;
}

/** Whether `id` is shaped like an id of this kind; a malformed id is answered like an unknown one. */
export function isId(prefix: IdPrefix, id: string): boolean {
  return patterns[prefix].test(id);
}
