import type { LimitOrderRow, LimitOrderStatus, PagePosition } from "../schemas";
import { parseJson } from "./json";
import {
  type DbRow,
  fromDb,
  INSERT_COLUMNS,
  insertValues,
  SELECT_STORED,
  selectAt,
  statusAt,
} from "./limit-order-rows";

/**
 * Limit orders' records in D1 (migrations/0001, 0006 and 0008; docs/limit-orders.md): placing, reading and
 * listing, as the routes and the event streams use them. `taker` is keyed as the chain normalises it (EVM:
 * lowercase). Status moves are src/db/limit-moves.ts; the keeper's book is src/db/limit-book.ts.
 */

/** Active orders of a taker: filling, or open and not past their expiry (swept or not). */
const ACTIVE_OF_TAKER = `taker = ?1 AND (status = 'filling' OR (status = 'open' AND expires_at > ?2))`;

export type PlaceOutcome = "placed" | "nonce_used" | "too_many_open";

/**
 * Stores a new open order, unless its taker already has `maxActive` active orders or the nonce is
 * taken (the table's unique key); both checks are part of the one statement, so concurrent placements
 * cannot pass them together.
 */
export async function insertLimitOrder(
  db: D1Database,
  row: LimitOrderRow,
  maxActive: number,
  now: string,
): Promise<PlaceOutcome> {
  const values = insertValues(row);
  const params = values.map((_, i) => `?${i + 3}`).join(", ");
  const r = await db
    .prepare(
      `INSERT INTO limit_orders (${INSERT_COLUMNS})
       SELECT ${params}
       WHERE (SELECT COUNT(*) FROM limit_orders WHERE ${ACTIVE_OF_TAKER}) < ${Number(maxActive)}
       ON CONFLICT DO NOTHING`,
    )
    .bind(row.taker, now, ...values)
    .run();
  if (r.meta.changes > 0) return "placed";
  return (await limitNonceTaken(db, row.chainId, row.taker, row.nonce)) ? "nonce_used" : "too_many_open";
}

/**
 * Order `limitOrderId`, as stored; with `now`, as of then (an open order past its expiry reads as
 * expired, src/db/limit-order-rows.ts), which is what a `GET` answers without writing.
 */
export async function readLimitOrder(
  db: D1Database,
  limitOrderId: string,
  now: string | null = null,
): Promise<LimitOrderRow | null> {
  const statement =
    now === null
      ? db.prepare(`SELECT ${SELECT_STORED} FROM limit_orders WHERE limit_order_id = ?1`).bind(limitOrderId)
      : db.prepare(`SELECT ${selectAt("?2")} FROM limit_orders WHERE limit_order_id = ?1`).bind(limitOrderId, now);
  const r = await statement.first();
  return r ? fromDb(r as DbRow) : null;
}

/** One status an order took (migrations/0008): `data` holds the record's changing fields after the move. */
export interface LimitOrderEvent {
  at: string;
  status: LimitOrderStatus;
  data: Record<string, unknown>;
}

/** What an order's event stream reads: its status and expiry, and the statuses it took, in order. */
export type LimitOrderProgress = Pick<LimitOrderRow, "status" | "expiresAt"> & { events: LimitOrderEvent[] };

/** Order `limitOrderId`'s progress in one round trip; null when there is no such order. */
export async function readLimitOrderProgress(db: D1Database, limitOrderId: string): Promise<LimitOrderProgress | null> {
  const [order, events] = await db.batch([
    db.prepare("SELECT status, expires_at AS expiresAt FROM limit_orders WHERE limit_order_id = ?").bind(limitOrderId),
    db
      .prepare("SELECT at, status, data FROM limit_order_events WHERE limit_order_id = ? ORDER BY id")
      .bind(limitOrderId),
  ]);
  const row = order?.results[0] as Pick<LimitOrderRow, "status" | "expiresAt"> | undefined;
  if (!row) return null;
  const moves = (events?.results ?? []) as { at: string; status: LimitOrderStatus; data: string }[];
  return {
    ...row,
    events: moves.map((r) => ({ at: r.at, status: r.status, data: parseJson<Record<string, unknown>>(r.data) ?? {} })),
  };
}

/** How many active orders the taker (normalised) has, on any chain. */
export async function countActiveLimitOrders(db: D1Database, taker: string, now: string): Promise<number> {
  const r = await db
    .prepare(`SELECT COUNT(*) AS n FROM limit_orders WHERE ${ACTIVE_OF_TAKER}`)
    .bind(taker, now)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

/** Every open order, on any chain, for the health check (docs/operations.md, "Health"). */
export async function countOpenLimitOrders(db: D1Database): Promise<number> {
  const r = await db.prepare("SELECT COUNT(*) AS n FROM limit_orders WHERE status = 'open'").first<{ n: number }>();
  return r?.n ?? 0;
}

/** Whether the taker (normalised) has an order with this Permit2 nonce (decimal) on the chain. */
export async function limitNonceTaken(db: D1Database, chainId: number, taker: string, nonce: string): Promise<boolean> {
  const r = await db
    .prepare("SELECT 1 AS taken FROM limit_orders WHERE chain_id = ? AND taker = ? AND nonce = ?")
    .bind(chainId, taker, nonce)
    .first();
  return r !== null;
}

/**
 * A taker's orders on a chain as of `now` (an open order past its expiry is listed, and filtered, as
 * expired), newest first, `limit` of them after `after` (a page).
 */
export async function listLimitOrders(
  db: D1Database,
  q: {
    taker: string;
    chainId: number;
    status: LimitOrderStatus | null;
    limit: number;
    after: PagePosition | null;
    now: string;
  },
): Promise<LimitOrderRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${selectAt("?7")} FROM limit_orders
       WHERE taker = ?1 AND chain_id = ?2 AND (?3 IS NULL OR ${statusAt("?7")} = ?3)
         AND (?4 IS NULL OR created_at < ?4 OR (created_at = ?4 AND limit_order_id < ?5))
       ORDER BY created_at DESC, limit_order_id DESC
       LIMIT ?6`,
    )
    .bind(q.taker, q.chainId, q.status, q.after?.createdAt ?? null, q.after?.limitOrderId ?? null, q.limit, q.now)
    .all<DbRow>();
  return results.map(fromDb);
}
