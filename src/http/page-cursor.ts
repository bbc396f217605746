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

export function encodeCursor(p: PagePosition): string {
  return btoa(`${p.at}|${p.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The position a cursor names, its id of the list's kind; null when it is not one this relay gave out. */
export function decodeCursor(cursor: string, kind: IdPrefix): PagePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const [at, found, ...rest] = text.split("|");
  if (rest.length > 0 || !at || !found || !TIMESTAMP.test(at) || !isId(kind, found)) return null;
  return { at, id: found };
}
