import { adapterFor } from "../chains";
import type { ChainAdapter } from "../chains/adapter";
import { primaryEvmChain } from "../config/record";
import type { RelayConfig } from "../config/schema";
import { listQuotes } from "../db/quotes";
import { invalidRequest } from "../errors";
import { decodeCursor, encodeCursor } from "../http/page-cursor";
import type { QuoteListQuery, QuotePage } from "../schemas/quote";

/** A page of `GET /v1/quotes` without `limit`. */
const DEFAULT_PAGE = 50;

/**
 * `GET /v1/quotes` (docs/api.md, "Lists of quotes"): a taker's quotes, or the quotes a resolver won, as of
 * now, newest first, a page at a time. A taker's address is one of a chain the relay serves (`chainId`'s
 * when given); a resolver's is its identity, an EVM address.
 */
export async function quotePage(db: D1Database, config: RelayConfig, query: QuoteListQuery): Promise<QuotePage> {
  const chains = config.chains.filter((c) => query.chainId === undefined || c.chainId === query.chainId);
  if (chains.length === 0) {
    throw invalidRequest([{ path: "chainId", message: `the relay does not serve chain ${query.chainId}` }]);
  }
  const [by, given] = owner(query);
  const adapters: ChainAdapter[] = (by === "resolver" ? [primaryEvmChain(config)] : chains).map(adapterFor);
  const adapter = adapters.find((a) => a.isAddress(given));
  if (!adapter) {
    const what = [...new Set(adapters.map((a) => a.addressDescription))].join(" or ");
    throw invalidRequest([{ path: by, message: `must be ${what}` }], "The request failed validation.");
  }
  const position = query.cursor === undefined ? null : decodeCursor(query.cursor, "q");
  if (query.cursor !== undefined && !position) {
    throw invalidRequest([{ path: "cursor", message: "is not a cursor this relay gave out" }]);
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = await listQuotes(db, {
    by,
    address: adapter.canonical(given),
    chainId: query.chainId ?? null,
    status: query.status ?? null,
    after: position && { quotedAt: position.at, quoteId: position.id },
    limit: limit + 1,
    now: new Date().toISOString(),
  });
  const quotes = rows.slice(0, limit);
  const last = quotes.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor({ at: last.quotedAt, id: last.quoteId }) : null;
  return { quotes, nextCursor };
}

/** Whose quotes: exactly one of `taker` and `resolver`. */
function owner(query: QuoteListQuery): ["taker" | "resolver", string] {
  if (query.taker !== undefined && query.resolver === undefined) return ["taker", query.taker];
  if (query.resolver !== undefined && query.taker === undefined) return ["resolver", query.resolver];
  throw invalidRequest(
    [{ path: query.taker === undefined ? "taker" : "resolver", message: "give exactly one of taker and resolver" }],
    "A list of quotes is a taker's or a resolver's.",
  );
}
