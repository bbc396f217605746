/** Resource ids: a short prefix and 16 random bytes in hex, e.g. `q_3f2a…`. */
export type IdPrefix = "q" | "rfq" | "x" | "lo" | "ak";

const patterns: Record<IdPrefix, RegExp> = {
  q: /^q_[0-9a-f]{32}$/,
  rfq: /^rfq_[0-9a-f]{32}$/,
  x: /^x_[0-9a-f]{32}$/,
  lo: /^lo_[0-9a-f]{32}$/,
  ak: /^ak_[0-9a-f]{32}$/,
};

/** The hex digits of an id's tag: a quote id's first 8 name its corridor (docs/architecture.md, "Write-behind"). */
export const TAG_HEX = 8;

/**
 * A new id; with `tag` (TAG_HEX lowercase hex digits), the id's first digits are the tag and the rest
 * random (96 bits), so the id still has the same shape.
 */
export function newId(prefix: IdPrefix, tag = ""): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `${prefix}_${tag}${hex.slice(tag.length)}`;
}

/** The tag an id was made with (`newId(prefix, tag)`): its first TAG_HEX hex digits. */
export const tagOf = (id: string): string => id.slice(id.indexOf("_") + 1, id.indexOf("_") + 1 + TAG_HEX);

/** Whether `id` is shaped like an id of this kind; a malformed id is answered like an unknown one. */
export function isId(prefix: IdPrefix, id: string): boolean {
  return patterns[prefix].test(id);
}

/**
 * A resolver's identity, the key it is stored, counted, struck and looked up by: its EVM address (the key
 * that signs its auth frame on every corridor, docs/resolver-protocol.md) in lower case, since an EVM
 * address's case is only its EIP-55 checksum. Every comparison of resolvers goes through it, never through
 * a hand-written `toLowerCase()` (docs/architecture.md, "Where each fact lives").
 */
export const resolverKey = (address: string): string => address.toLowerCase();
