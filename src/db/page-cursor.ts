import { type IdPrefix, isId } from "../ids";

/**
 * The opaque `cursor` of the relay's lists (docs/api.md, "Lists"): where the next page starts, the last
 * element of this one, as base64url of `<timestamp>|<id>`. Lists are newest first, so the next page holds
 * what came before that element.
 */
export interface PagePosition {
  /** ISO 8601 with milliseconds, as the relay stores its times. */
  at: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The text a cursor carries; null when it is not base64url of at most 200 characters. */
function fromBase64Url(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    return atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
}

export function encodeCursor(p: PagePosition): string {
  return toBase64Url(`${p.at}|${p.id}`);
}

/** The position a cursor names, its id of the list's kind; null when it is not one this relay gave out. */
export function decodeCursor(cursor: string, kind: IdPrefix): PagePosition | null {
  const text = fromBase64Url(cursor);
  if (text === null) return null;
  const [at, found, ...rest] = text.split("|");
  if (rest.length > 0 || !at || !found || !TIMESTAMP.test(at) || !isId(kind, found)) return null;
  return { at, id: found };
}

/**
 * The cursor of a list in the order of one key that never changes (the resolver directory, by address):
 * the last key of this page, as base64url of `key|<key>`.
 */
export const encodeKeyCursor = (key: string): string => toBase64Url(`key|${key}`);

/** The key a cursor of `encodeKeyCursor` names, if `valid` says it is one of the list's; else null. */
export function decodeKeyCursor(cursor: string, valid: (key: string) => boolean): string | null {
  const text = fromBase64Url(cursor);
  if (text === null || !text.startsWith("key|")) return null;
  const key = text.slice(4);
  return valid(key) ? key : null;
}
