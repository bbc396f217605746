import { adapterFor } from "../chains";
import type { ChainConfig, RelayConfig } from "../config";
import { primaryEvmChain } from "../config";
import { decodeCursor, encodeCursor, listQuotesOver, listsCompleteFromAll } from "../db";
import { invalidRequest } from "../errors";
import type { QuoteListQuery, QuotePage } from "../schemas";

/** A page of `GET /v1/quotes` without `limit`. */
const DEFAULT_PAGE = 50;

/**
 * `GET /v1/quotes` (docs/api.md, "Lists of quotes"): a taker's quotes, the quotes a resolver won, or every
 * quote (the explorer's recent activity), as of now, newest first, a page at a time. A taker's address is
 * one of a chain the relay serves (`chainId`'s when given); a resolver's is its identity, an EVM address.
 * A page says from when the lists are complete: quotes ended before may have left for the archive.
 * `dbs` are every records database: each is asked for the page, and the newest kept (docs/capacity.md,
 * "Records by corridor").
 */
export async function quotePage(
  dbs: readonly D1Database[],
  config: RelayConfig,
  query: QuoteListQuery,
): Promise<QuotePage> {
  const chains = config.chains.filter((c) => query.chainId === undefined || c.chainId === query.chainId);
  if (chains.length === 0) {
    throw invalidRequest([{ path: "chainId", message: `the relay does not serve chain ${query.chainId}` }]);
  }
  const [by, given] = owner(query);
  const address = by === "all" ? "" : spelled(by, given, by === "resolver" ? [primaryEvmChain(config)] : chains);
  const position = query.cursor === undefined ? null : decodeCursor(query.cursor, "q");
  if (query.cursor !== undefined && !position) {
    throw invalidRequest([{ path: "cursor", message: "is not a cursor this relay gave out" }]);
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const [rows, completeFrom] = await Promise.all([
    listQuotesOver(dbs, {
      by,
      address,
      chainId: query.chainId ?? null,
      status: query.status ?? null,
      after: position && { quotedAt: position.at, quoteId: position.id },
      limit: limit + 1,
      now: new Date().toISOString(),
    }),
    listsCompleteFromAll(dbs),
  ]);
  const quotes = rows.slice(0, limit);
  const last = quotes.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor({ at: last.quotedAt, id: last.quoteId }) : null;
  return { quotes, nextCursor, completeFrom };
}

/** `given` in the spelling of the first of `chains` it is an address of (EIP-55 on EVM); else 400 on `field`. */
function spelled(field: string, given: string, chains: readonly ChainConfig[]): string {
  const adapters = chains.map(adapterFor);
  const adapter = adapters.find((a) => a.isAddress(given));
  if (adapter) return adapter.canonical(given);
  const what = [...new Set(adapters.map((a) => a.addressDescription))].join(" or ");
  throw invalidRequest([{ path: field, message: `must be ${what}` }], "The request failed validation.");
}

/** Whose quotes: a taker's, a resolver's, or, with neither, every quote; never both. */
function owner(query: QuoteListQuery): ["taker" | "resolver" | "all", string] {
  if (query.taker !== undefined && query.resolver !== undefined) {
    throw invalidRequest(
      [{ path: "resolver", message: "give at most one of taker and resolver" }],
      "A list of quotes is a taker's, a resolver's, or every quote.",
    );
  }
  if (query.taker !== undefined) return ["taker", query.taker];
  if (query.resolver !== undefined) return ["resolver", query.resolver];
  return ["all", ""];
}
