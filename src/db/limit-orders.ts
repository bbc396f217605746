import type { RevokeCall } from "../chains/limit-orders";
import { ACTIVE_LIMIT_STATUSES, LIMIT_MOVES } from "../limit-orders/states";
import { statusSql } from "../quotes/states";
import type { Erc2612Permit } from "../schemas/execution";
import type { LimitOrderStatus } from "../schemas/limit-order";
import { parseJson, toJson } from "./json";

/**
 * Limit orders in D1 (migrations/0001 and 0006; docs/limit-orders.md). Amounts are decimal strings,
 * timestamps ISO 8601; `taker` is keyed as the chain normalises it (EVM: lowercase). Every status change
 * is one conditional statement built from `LIMIT_MOVES`, so a move repeated after a restart, or raced by
 * another, changes nothing the second time.
 */

export interface LimitOrderRow {
  limitOrderId: string;
  chainId: number;
  /** The canonical corridor key (src/corridors.ts) the order is auctioned on. */
  corridor: string;
  status: LimitOrderStatus;
  taker: string;
  recipient: string;
  sellToken: string;
  buyToken: string;
  sellAmount: string;
  limitAmount: string;
  minOut: string;
  feeToken: string | null;
  feeBps: number;
  feeAtLimit: string;
  gasFeeToken: string;
  gasFeeNow: string;
  maxGasFee: string;
  permitToken: string;
  permitAmount: string;
  /** The Permit2 nonce, decimal. */
  nonce: string;
  /** Unix seconds, decimal. */
  deadline: string;
  /** The typed data the taker signed, as prepare returned it. */
  typedData: Record<string, unknown>;
  signature: string;
  erc2612: Erc2612Permit | null;
  revoke: RevokeCall;
  expiresAt: string;
  quoteId: string | null;
  attempts: number;
  lastError: string | null;
  lastCheckedAt: string | null;
  bestReceived: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Row fields and their columns, in the order of the insert. */
const COLUMNS = {
  limitOrderId: "limit_order_id",
  chainId: "chain_id",
  corridor: "corridor",
  status: "status",
  taker: "taker",
  recipient: "recipient",
  sellToken: "sell_token",
  buyToken: "buy_token",
  sellAmount: "sell_amount",
  limitAmount: "limit_amount",
  minOut: "min_out",
  feeToken: "fee_token",
  feeBps: "fee_bps",
  feeAtLimit: "fee_at_limit",
  gasFeeToken: "gas_fee_token",
  gasFeeNow: "gas_fee_now",
  maxGasFee: "max_gas_fee",
  permitToken: "permit_token",
  permitAmount: "permit_amount",
  nonce: "nonce",
  deadline: "deadline",
  typedData: "typed_data",
  signature: "signature",
  erc2612: "erc2612",
  revoke: "revoke",
  expiresAt: "expires_at",
  quoteId: "quote_id",
  attempts: "attempts",
  lastError: "last_error",
  lastCheckedAt: "last_checked_at",
  bestReceived: "best_received",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof LimitOrderRow, string>;

type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];
const JSON_FIELDS = new Set<Field>(["typedData", "erc2612", "revoke"]);

/** `limit_order_id AS limitOrderId, …`: rows come back with the row's field names. */
const SELECT = FIELDS.map((f) => `${COLUMNS[f]} AS ${f}`).join(", ");

type DbRow = Record<Field, unknown>;

function fromDb(r: DbRow): LimitOrderRow {
  const out = { ...r } as Record<string, unknown>;
  for (const f of JSON_FIELDS) out[f] = parseJson(r[f] as string | null);
  return out as unknown as LimitOrderRow;
}

const ACTIVE_SQL = statusSql(ACTIVE_LIMIT_STATUSES);

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
  const values = FIELDS.map((f) => (JSON_FIELDS.has(f) ? toJson(row[f]) : row[f]));
  const params = values.map((_, i) => `?${i + 3}`).join(", ");
  const r = await db
    .prepare(
      `INSERT INTO limit_orders (${FIELDS.map((f) => COLUMNS[f]).join(", ")})
       SELECT ${params}
       WHERE (SELECT COUNT(*) FROM limit_orders WHERE ${ACTIVE_OF_TAKER}) < ${Number(maxActive)}
       ON CONFLICT DO NOTHING`,
    )
    .bind(row.taker, now, ...values)
    .run();
  if (r.meta.changes > 0) return "placed";
  return (await limitNonceTaken(db, row.chainId, row.taker, row.nonce)) ? "nonce_used" : "too_many_open";
}

export async function readLimitOrder(db: D1Database, limitOrderId: string): Promise<LimitOrderRow | null> {
  const r = await db.prepare(`SELECT ${SELECT} FROM limit_orders WHERE limit_order_id = ?`).bind(limitOrderId).first();
  return r ? fromDb(r as DbRow) : null;
}

/** One status an order took (migrations/0008): `data` holds the record's changing fields after the move. */
export interface LimitOrderEvent {
  at: string;
  status: LimitOrderStatus;
  data: Record<string, unknown>;
}

/** What an order's event stream reads: its status and expiry, and the statuses it took, in order. */
export interface LimitOrderProgress {
  status: LimitOrderStatus;
  expiresAt: string;
  events: LimitOrderEvent[];
}

/** Order `limitOrderId`'s progress in one round trip; null when there is no such order. */
export async function readLimitOrderProgress(db: D1Database, limitOrderId: string): Promise<LimitOrderProgress | null> {
  const [order, events] = await db.batch([
    db.prepare("SELECT status, expires_at AS expiresAt FROM limit_orders WHERE limit_order_id = ?").bind(limitOrderId),
    db
      .prepare("SELECT at, status, data FROM limit_order_events WHERE limit_order_id = ? ORDER BY id")
      .bind(limitOrderId),
  ]);
  const row = order?.results[0] as { status: LimitOrderStatus; expiresAt: string } | undefined;
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

/** Where a page of a taker's orders starts: after this order, newest first. */
export interface PagePosition {
  createdAt: string;
  limitOrderId: string;
}

/** A taker's orders on a chain, newest first, `limit` of them after `after` (a page). */
export async function listLimitOrders(
  db: D1Database,
  q: { taker: string; chainId: number; status: LimitOrderStatus | null; limit: number; after: PagePosition | null },
): Promise<LimitOrderRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${SELECT} FROM limit_orders
       WHERE taker = ?1 AND chain_id = ?2 AND (?3 IS NULL OR status = ?3)
         AND (?4 IS NULL OR created_at < ?4 OR (created_at = ?4 AND limit_order_id < ?5))
       ORDER BY created_at DESC, limit_order_id DESC
       LIMIT ?6`,
    )
    .bind(q.taker, q.chainId, q.status, q.after?.createdAt ?? null, q.after?.limitOrderId ?? null, q.limit)
    .all<DbRow>();
  return results.map(fromDb);
}

/** Cancels an open, unexpired order; false otherwise (the caller reads why). */
export async function cancelLimitOrder(db: D1Database, limitOrderId: string, now: string): Promise<boolean> {
  const { from, to } = LIMIT_MOVES.cancel;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET status = '${to}', updated_at = ?2
       WHERE limit_order_id = ?1 AND status = '${from}' AND expires_at > ?2`,
    )
    .bind(limitOrderId, now)
    .run();
  return r.meta.changes > 0;
}

/** An order that moved, and the corridor whose object hosts its event stream (docs/api.md, "Event streams"). */
export interface MovedLimitOrder {
  limitOrderId: string;
  corridor: string;
}

/** `RETURNING` of a statement that moves orders: who moved, for their streams. */
export const RETURNING_MOVED = "RETURNING limit_order_id AS limitOrderId, corridor";

/**
 * Marks open orders past their `expiresAt` as expired: one order (`limitOrderId`, when it is read), or
 * every due order (the keeper's sweep), in one statement. Returns the orders it expired.
 */
export async function expireLimitOrders(
  db: D1Database,
  now: string,
  limitOrderId: string | null = null,
): Promise<MovedLimitOrder[]> {
  const { from, to } = LIMIT_MOVES.expire;
  // Two shapes of one statement, so each finds its rows by an index: the key, or the status index.
  const which = limitOrderId === null ? "?2 IS NULL" : "limit_order_id = ?2";
  const { results } = await db
    .prepare(
      `UPDATE limit_orders SET status = '${to}', updated_at = ?1
       WHERE ${which} AND status = '${from}' AND expires_at <= ?1 ${RETURNING_MOVED}`,
    )
    .bind(now, limitOrderId)
    .all<MovedLimitOrder>();
  return results;
}

// ---- The keeper's limit job (docs/limit-orders.md, "The keeper's job") ----

/**
 * Open, unexpired orders due for an auction: never checked, or last checked at or before
 * `checkedBefore`; least recently checked first, at most `limit` of them (one query).
 */
export async function dueLimitOrders(
  db: D1Database,
  q: { now: string; checkedBefore: string; limit: number },
): Promise<LimitOrderRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${SELECT} FROM limit_orders
       WHERE status = 'open' AND expires_at > ?1 AND (last_checked_at IS NULL OR last_checked_at <= ?2)
       ORDER BY last_checked_at, created_at
       LIMIT ?3`,
    )
    .bind(q.now, q.checkedBefore, q.limit)
    .all<DbRow>();
  return results.map(fromDb);
}

/** The outcome of one auction of an order. */
export interface LimitCheck {
  limitOrderId: string;
  checkedAt: string;
  /** The best offer's `received`, or null when there was none. */
  bestReceived: string | null;
  lastError: string | null;
}

/**
 * Records auctions of many orders in one statement: `attempts + 1`, `lastCheckedAt`, `bestReceived`,
 * `lastError`, for each order that is still open or filling (one check per order). Returns how many
 * orders it updated.
 */
export async function recordLimitChecks(db: D1Database, checks: readonly LimitCheck[]): Promise<number> {
  if (checks.length === 0) return 0;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET
         attempts = attempts + 1,
         last_checked_at = json_extract(c.value, '$.checkedAt'),
         best_received = json_extract(c.value, '$.bestReceived'),
         last_error = json_extract(c.value, '$.lastError'),
         updated_at = json_extract(c.value, '$.checkedAt')
       FROM json_each(?1) AS c
       WHERE limit_orders.limit_order_id = json_extract(c.value, '$.limitOrderId')
         AND limit_orders.status IN (${ACTIVE_SQL})`,
    )
    .bind(JSON.stringify(checks))
    .run();
  return r.meta.changes;
}

/**
 * `open → filling`: the keeper is about to broadcast a fill of the order in quote `quoteId`. False when
 * the order is no longer open (cancelled, expired, or already filling): then nothing may be broadcast.
 */
export async function startLimitFill(
  db: D1Database,
  m: { limitOrderId: string; quoteId: string; now: string },
): Promise<boolean> {
  const { from, to } = LIMIT_MOVES.fill;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET status = '${to}', quote_id = ?2, updated_at = ?3
       WHERE limit_order_id = ?1 AND status = '${from}' AND expires_at > ?3`,
    )
    .bind(m.limitOrderId, m.quoteId, m.now)
    .run();
  return r.meta.changes > 0;
}

/** `filling → filled`: the fill in quote `quoteId` settled. False when the order is not filling that quote. */
export async function settleLimitFill(
  db: D1Database,
  m: { limitOrderId: string; quoteId: string; now: string },
): Promise<boolean> {
  const { from, to } = LIMIT_MOVES.filled;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET status = '${to}', updated_at = ?3
       WHERE limit_order_id = ?1 AND status = '${from}' AND quote_id = ?2`,
    )
    .bind(m.limitOrderId, m.quoteId, m.now)
    .run();
  return r.meta.changes > 0;
}

/**
 * `filling → open`: the fill in quote `quoteId` failed; the order is auctioned again, `quoteId` cleared
 * and `lastError` the reason. False when the order is not filling that quote.
 */
export async function reopenLimitOrder(
  db: D1Database,
  m: { limitOrderId: string; quoteId: string; reason: string; now: string },
): Promise<boolean> {
  const { from, to } = LIMIT_MOVES.reopen;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET status = '${to}', quote_id = NULL, last_error = ?3, updated_at = ?4
       WHERE limit_order_id = ?1 AND status = '${from}' AND quote_id = ?2`,
    )
    .bind(m.limitOrderId, m.quoteId, m.reason, m.now)
    .run();
  return r.meta.changes > 0;
}
