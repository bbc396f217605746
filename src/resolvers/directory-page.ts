import { decodeKeyCursor, encodeKeyCursor, readDirectoryPage } from "../db";
import { invalidRequest } from "../errors";
import { resolverKey } from "../ids";
import type { Node, ResolverListQuery, ResolverPage } from "../schemas";
import { buildDirectory, INACTIVE_AFTER_MS } from "./directory";
import { windowStart } from "./reliability";

/** A page of `GET /v1/resolvers` without `limit`. */
const DEFAULT_PAGE = 50;

/** A directory key: a lowercase EVM address, as D1 keeps resolvers. */
const DIRECTORY_KEY = /^0x[0-9a-f]{40}$/;

/**
 * `GET /v1/resolvers` (docs/api.md, "Nodes and resolvers"): the directory by address, a page at a time,
 * read in SQL (src/db/resolver-pages.ts). Without `include=inactive` a page holds the resolvers active in
 * the last day, a connected one whatever D1 holds of it, and `inactive` counts the others.
 */
export async function directoryPage(
  db: D1Database,
  live: readonly Node[],
  query: ResolverListQuery,
  now: number,
): Promise<ResolverPage> {
  const after = query.cursor === undefined ? null : decodeKeyCursor(query.cursor, (k) => DIRECTORY_KEY.test(k));
  if (query.cursor !== undefined && after === null) {
    throw invalidRequest([{ path: "cursor", message: "is not a cursor this relay gave out" }]);
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const everyone = query.include === "inactive";
  const page = await readDirectoryPage(db, {
    after,
    limit: limit + 1,
    activeSince: everyone ? null : new Date(now - INACTIVE_AFTER_MS).toISOString(),
    live: live.filter((n) => activeByHeartbeat(n, now)).map((n) => resolverKey(n.address)),
    windowStart: windowStart(now),
  });
  const rows = page.rows.slice(0, limit);
  // The rows are chosen in SQL: the directory only dresses them with what the live view knows.
  const { resolvers } = buildDirectory(rows, page.totals, live, now, true);
  const last = rows.at(-1);
  const nextCursor = page.rows.length > limit && last ? encodeKeyCursor(last.address) : null;
  return { resolvers, inactive: page.inactive, nextCursor };
}

/** A connected node that is online, or heartbeated within the inactivity cutoff: active, whatever D1 says. */
function activeByHeartbeat(node: Node, now: number): boolean {
  const heard = node.lastHeartbeat === null ? null : Date.parse(node.lastHeartbeat);
  return node.fresh || (heard !== null && now - heard <= INACTIVE_AFTER_MS);
}
