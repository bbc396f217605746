import { primaryEvmChain } from "../config";
import { cancelLimitOrder, decodeCursor, encodeCursor, listLimitOrders, readLimitOrder } from "../db";
import { invalidRequest, notFound, RelayError } from "../errors";
import { isId } from "../ids";
import { addressIssues, verifySignedCancel } from "../quotes";
import type { LimitListQuery, LimitOrder, LimitOrderPage, LimitOrderRow, MovedLimitOrder } from "../schemas";
import { type LimitOrderContext, limitChainOf, limitSettings } from "./context";
import { cancelLimitMessage } from "./messages";
import { limitOrderRecord } from "./record";

/**
 * Reading, listing and cancelling placed orders (docs/limit-orders.md, "Reading and listing", "Cancel").
 * Reads never write: an open order past its expiry reads as expired until the keeper's sweep records it.
 */

/** A page of `GET /v1/limit-orders` without `limit`. */
const DEFAULT_PAGE = 50;

const unknownOrder = (id: string) => notFound(`No limit order has the id ${JSON.stringify(id)}.`);

/** `GET /v1/limit-orders/{id}`: the record as of now; 404 for an unknown or malformed id. */
export async function limitOrderById(db: D1Database, id: string): Promise<LimitOrder> {
  const row = isId("lo", id) ? await readLimitOrder(db, id, new Date().toISOString()) : null;
  if (!row) throw unknownOrder(id);
  return limitOrderRecord(row);
}

/** `GET /v1/limit-orders`: a taker's orders on a chain as of now, newest first, a page at a time. */
export async function limitOrderPage(ctx: LimitOrderContext, query: LimitListQuery): Promise<LimitOrderPage> {
  limitSettings(ctx.config);
  const chainId = query.chainId ?? primaryEvmChain(ctx.config).chainId;
  const { adapter } = limitChainOf(ctx, chainId, () =>
    invalidRequest([{ path: "chainId", message: `the relay does not serve chain ${chainId}` }]),
  );
  const issues = addressIssues(adapter, { taker: query.taker });
  if (issues.length) throw invalidRequest(issues, "The request failed validation.");
  const position = query.cursor === undefined ? null : decodeCursor(query.cursor, "lo");
  const after = position && { createdAt: position.at, limitOrderId: position.id };
  if (query.cursor !== undefined && !position) {
    throw invalidRequest([{ path: "cursor", message: "is not a cursor this relay gave out" }]);
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = await listLimitOrders(ctx.db, {
    taker: adapter.normalise(query.taker),
    chainId,
    status: query.status ?? null,
    limit: limit + 1,
    after,
    now: new Date().toISOString(),
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor({ at: last.createdAt, id: last.limitOrderId }) : null;
  return { limitOrders: page.map(limitOrderRecord), nextCursor };
}

/**
 * `POST /v1/limit-orders/{id}/cancel`: the taker's signed cancel (src/quotes/signed-cancel.ts) moves an
 * open order to `cancelled`; 409 `order_filling` while a fill is on its way, `order_not_open` once it
 * ended. Returns the cancelled record, and the order that moved for its event stream.
 */
export async function cancelSignedLimitOrder(
  ctx: LimitOrderContext,
  id: string,
  signature: string,
): Promise<{ order: LimitOrder; moved: MovedLimitOrder }> {
  const { db } = ctx;
  const row = isId("lo", id) ? await readLimitOrder(db, id) : null;
  if (!row) throw unknownOrder(id);
  await verifySignedCancel(ctx.config, {
    chainId: row.chainId,
    taker: row.taker,
    message: cancelLimitMessage(row.chainId, id),
    signature,
  });
  const now = new Date().toISOString();
  if (!(await cancelLimitOrder(db, id, now))) {
    const status = (await readLimitOrder(db, id, now))?.status ?? row.status;
    if (status === "filling") {
      throw new RelayError(409, "order_filling", "A fill of this order is on its way; it cannot be cancelled now.", {
        status,
      });
    }
    throw new RelayError(409, "order_not_open", `The order is ${status}.`, { status });
  }
  const cancelled = (await readLimitOrder(db, id)) as LimitOrderRow;
  return { order: limitOrderRecord(cancelled), moved: { limitOrderId: id, corridor: row.corridor } };
}
