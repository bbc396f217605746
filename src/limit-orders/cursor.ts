import type { PagePosition } from "../schemas/limit-order";

/**
 * The opaque `cursor` of `GET /v1/limit-orders` (docs/limit-orders.md, "Listing"): where the next page
 * starts, the last order of this one, as base64url of `<createdAt>|<limitOrderId>`.
 */

const ID = /^lo_[0-9a-f]{32}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(p: PagePosition): string {
  return btoa(`${p.createdAt}|${p.limitOrderId}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The position a cursor names; null when it is not one this relay gave out. */
export function decodeCursor(cursor: string): PagePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const [createdAt, limitOrderId, ...rest] = text.split("|");
  if (rest.length > 0 || !createdAt || !limitOrderId || !TIMESTAMP.test(createdAt) || !ID.test(limitOrderId)) {
    return null;
  }
  return { createdAt, limitOrderId };
}
