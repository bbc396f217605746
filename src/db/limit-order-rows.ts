import type { LimitOrderRow } from "../schemas";
import { LIMIT_MOVES } from "../states";
import { parseJson, toJson } from "./json";

/**
 * How a limit order's row maps to D1 `limit_orders` (migrations/0001 and 0006), for the records the
 * routes read and write (src/db/limit-orders.ts) and the book the keeper reads (src/db/limit-book.ts).
 * Amounts are decimal strings, timestamps ISO 8601.
 */

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

export type DbRow = Record<Field, unknown>;

/** The columns of an insert, and a row's values in their order. */
export const INSERT_COLUMNS = FIELDS.map((f) => COLUMNS[f]).join(", ");
export const insertValues = (row: LimitOrderRow) => FIELDS.map((f) => (JSON_FIELDS.has(f) ? toJson(row[f]) : row[f]));

/** `limit_order_id AS limitOrderId, …`: rows come back with the row's field names, as stored. */
export const SELECT_STORED = FIELDS.map((f) => `${COLUMNS[f]} AS ${f}`).join(", ");

const { from: OPEN, to: EXPIRED } = LIMIT_MOVES.expire;

/**
 * The row as of the time in parameter `now` (e.g. `?2`): an open order past its expiry reads as expired
 * at its `expiresAt`, as the expire move records it (src/db/limit-moves.ts), whether or not the keeper's
 * sweep has run yet. So a read never has to write (docs/limit-orders.md, "States").
 */
const expiredAt = (now: string) => `(status = '${OPEN}' AND expires_at <= ${now})`;
export const statusAt = (now: string) => `CASE WHEN ${expiredAt(now)} THEN '${EXPIRED}' ELSE status END`;
export const selectAt = (now: string) =>
  FIELDS.map((f) => {
    if (f === "status") return `${statusAt(now)} AS status`;
    if (f === "updatedAt") return `CASE WHEN ${expiredAt(now)} THEN expires_at ELSE updated_at END AS updatedAt`;
    return `${COLUMNS[f]} AS ${f}`;
  }).join(", ");

export function fromDb(r: DbRow): LimitOrderRow {
  const out = { ...r } as Record<string, unknown>;
  for (const f of JSON_FIELDS) out[f] = parseJson(r[f] as string | null);
  return out as unknown as LimitOrderRow;
}
