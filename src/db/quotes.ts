import {
  type Band,
  type Fill,
  legsOf,
  type Quote,
  type Replies,
  type Settlement,
  type Steering,
  type TimelineEntry,
} from "../schemas";
import { blameOf } from "../states";
import type { FillKind } from "../types";
import type { ExecutionRow } from "./executions";
import { parseJson } from "./json";
import type { FillDbRow, OfferDbRow, QuoteDbRow, QuoteExecutionDbRow, TimelineDbRow } from "./quote-db-rows";
import { executionForKeyStatement, keyQuoteStatement } from "./settlement";

/** The stored part of a quote: the record without the lists kept in their own tables. */
export type QuoteRow = Omit<Quote, "offers" | "legs" | "executions" | "fills" | "timeline"> & {
  /** What the taker signs and the order terms behind it (chain-specific), kept for submission. */
  signing: unknown;
  /** An RFQ fill or a limit order's; rfq when not said. */
  fillKind?: FillKind;
  /** Whole charged tokens per whole native unit the gas fee was priced at; null for the fallback. */
  nativePrice?: number | null;
};

const quoteRowStatement = (db: D1Database, quoteId: string) =>
  db.prepare("SELECT * FROM quotes WHERE quote_id = ?").bind(quoteId);

export async function readQuoteRow(db: D1Database, quoteId: string): Promise<QuoteRow | null> {
  const row = await quoteRowStatement(db, quoteId).first<QuoteDbRow>();
  return row ? toQuoteRow(row) : null;
}

/**
 * What a submission reads first, in one D1 round trip: its quote, and with an Idempotency-Key the
 * execution that key produced for the quote's taker (`executionForKeyStatement`) and, of `takenWith` (the
 * other quotes the keeper leader has taken the key for), one of the same taker's (`keyQuoteStatement`).
 * `dbOf` names each of those quotes' database (docs/capacity.md, "Records by corridor"): those of another
 * database than `db` are looked up there by the quote's taker, one more read each, only when no quote of
 * `db` is the taker's.
 */
export async function readSubmission(
  db: D1Database,
  quoteId: string,
  key: string | null,
  now: string,
  takenWith: readonly string[] = [],
  dbOf: (id: string) => D1Database = () => db,
): Promise<{ quote: QuoteRow | null; repeated: ExecutionRow | null; takenFor: string | null }> {
  const here = takenWith.filter((id) => dbOf(id) === db);
  const [quotes, executions, taken] = await db.batch([
    quoteRowStatement(db, quoteId),
    ...(key === null ? [] : [executionForKeyStatement(db, quoteId, key, now)]),
    ...(key === null || here.length === 0 ? [] : [keyQuoteStatement(db, quoteId, here)]),
  ]);
  const row = rows<QuoteDbRow>(quotes)[0];
  const quote = row ? toQuoteRow(row) : null;
  let takenFor = rows<{ quoteId: string }>(taken)[0]?.quoteId ?? null;
  const elsewhere = takenWith.filter((id) => dbOf(id) !== db);
  if (key !== null && takenFor === null && quote && elsewhere.length > 0)
    takenFor = await takersQuote(quote.taker, elsewhere, dbOf);
  return { quote, repeated: rows<ExecutionRow>(executions)[0] ?? null, takenFor };
}

/** The newest of `ids` that is `taker`'s, each read in its own database; null when none is. */
async function takersQuote(taker: string, ids: readonly string[], dbOf: (id: string) => D1Database) {
  const found = await Promise.all(
    ids.map((id) =>
      dbOf(id)
        .prepare(
          "SELECT quote_id AS quoteId, quoted_at AS at FROM quotes WHERE quote_id = ?1 AND lower(taker) = lower(?2)",
        )
        .bind(id, taker)
        .first<{ quoteId: string; at: string }>(),
    ),
  );
  const taken = found.filter((f) => f !== null).sort((a, b) => (a.at < b.at ? 1 : -1));
  return taken[0]?.quoteId ?? null;
}

/** Record 2.2, read in one round trip; null when there is no such quote. */
export async function readQuoteRecord(db: D1Database, quoteId: string): Promise<Quote | null> {
  return (await readQuoteClaim(db, quoteId))?.quote ?? null;
}

/**
 * Record 2.2 and whether the keeper holds a claim on the quote (a fill of it is on its way), in one
 * round trip; null when there is no such quote.
 */
export async function readQuoteClaim(
  db: D1Database,
  quoteId: string,
): Promise<{ quote: Quote; claimed: boolean } | null> {
  const [quotes, offers, timeline, executions, fills] = await db.batch([
    db.prepare("SELECT * FROM quotes WHERE quote_id = ?").bind(quoteId),
    db
      .prepare(`SELECT ${OFFER_COLUMNS.replace("quote_id, ", "")} FROM offers WHERE quote_id = ? ORDER BY rank`)
      .bind(quoteId),
    db.prepare("SELECT at, event, detail FROM timeline_events WHERE quote_id = ? ORDER BY id").bind(quoteId),
    db
      .prepare(`SELECT ${EXECUTION_COLUMNS} FROM executions WHERE quote_id = ? ORDER BY created_at, execution_id`)
      .bind(quoteId),
    db.prepare(`SELECT ${FILL_COLUMNS} FROM fills WHERE quote_id = ? ORDER BY tx_hash, log_index`).bind(quoteId),
  ]);
  const row = rows<QuoteDbRow>(quotes)[0];
  if (!row) return null;
  const quote = assembleQuote(
    row,
    rows<OfferDbRow>(offers),
    rows<TimelineDbRow>(timeline),
    rows<QuoteExecutionDbRow>(executions),
    rows<FillDbRow>(fills),
  );
  return { quote, claimed: row.claimed_at !== null };
}

/** Record 2.2 from its stored rows: the quote's, and its offers, timeline, executions and fills in their order. */
export function assembleQuote(
  row: QuoteDbRow,
  offers: OfferDbRow[],
  timeline: TimelineDbRow[],
  executions: QuoteExecutionDbRow[],
  fills: FillDbRow[],
): Quote {
  const record = {
    ...recordFields(row),
    offers: offers.map((o) => ({
      resolver: o.resolver,
      name: o.name,
      outputAmount: o.output_amount,
      rank: o.rank,
      status: o.status,
      latencyMs: o.latency_ms,
      won: o.won === 1,
      ...(o.sell_amount === null ? {} : { sellAmount: o.sell_amount }),
    })),
    executions: executions.map(quoteExecution),
    fills: fills.map(fill),
    timeline: timeline.map(timelineEntry),
  };
  return { ...record, legs: legsOf(record) };
}

/** The columns a quote's offers and timeline are read by, in their order, with their quote's id (for batches). */
export const OFFER_COLUMNS = "quote_id, resolver, name, output_amount, rank, status, latency_ms, won, sell_amount";
export const TIMELINE_COLUMNS = "quote_id, at, event, detail";

/** The columns a quote's executions and fills are read by, with their quote's id (for lists). */
export const EXECUTION_COLUMNS =
  "quote_id, execution_id, status, reason, tx_hash, submitter, gas_used, created_at, updated_at";
export const FILL_COLUMNS = "quote_id, order_hash, resolver, filler, log_index";

/** The stored row as the quote record shows it: without what only the keeper reads. */
export function recordFields(row: QuoteDbRow) {
  const { signing: _signing, fillKind: _kind, nativePrice: _price, ...quote } = toQuoteRow(row);
  return quote;
}

export const quoteExecution = (e: QuoteExecutionDbRow): Quote["executions"][number] => ({
  executionId: e.execution_id,
  status: e.status,
  reason: e.reason,
  blame: blameOf(e.reason),
  txHash: e.tx_hash,
  submitter: e.submitter,
  gasUsed: e.gas_used,
  createdAt: e.created_at,
  updatedAt: e.updated_at,
});

export const fill = (f: FillDbRow): Fill => ({
  orderHash: f.order_hash,
  resolver: f.resolver,
  filler: f.filler,
  logIndex: f.log_index,
});

/** What a quote's event stream reads (docs/api.md, "Event streams"): its status and timeline, in one round trip. */
export interface QuoteProgress {
  status: Quote["status"];
  expiresAt: string;
  updatedAt: string;
  /** A fill of it is on its way: an expired quote may still become `submitted`. */
  claimed: boolean;
  timeline: TimelineEntry[];
}

export async function readQuoteProgress(db: D1Database, quoteId: string): Promise<QuoteProgress | null> {
  const [quotes, timeline] = await db.batch([
    db.prepare("SELECT status, expires_at, updated_at, claimed_at FROM quotes WHERE quote_id = ?").bind(quoteId),
    db.prepare("SELECT at, event, detail FROM timeline_events WHERE quote_id = ? ORDER BY id").bind(quoteId),
  ]);
  const row = rows<{
    status: Quote["status"];
    expires_at: string;
    updated_at: string;
    claimed_at: string | null;
  }>(quotes)[0];
  if (!row) return null;
  return {
    status: row.status,
    expiresAt: row.expires_at,
    updatedAt: row.updated_at,
    claimed: row.claimed_at !== null,
    timeline: rows<TimelineDbRow>(timeline).map(timelineEntry),
  };
}

const timelineEntry = (t: TimelineDbRow): TimelineEntry => ({
  at: t.at,
  event: t.event,
  detail: parseJson<Record<string, unknown>>(t.detail),
});

export function rows<T>(result: D1Result | undefined): T[] {
  return (result?.results ?? []) as T[];
}

function toQuoteRow(r: QuoteDbRow): QuoteRow {
  return {
    quoteId: r.quote_id,
    rfqId: r.rfq_id,
    chainId: r.chain_id,
    status: r.status,
    final: r.final === 1,
    taker: r.taker,
    recipient: r.recipient,
    sellToken: r.sell_token,
    buyToken: r.buy_token,
    sellAmount: r.sell_amount,
    received: r.received,
    minReceived: r.min_received ?? r.received,
    slippageBps: r.slippage_bps,
    fee: { token: r.fee_token, amount: r.fee_amount },
    gasFee: { token: r.gas_fee_token, amount: r.gas_fee_amount, source: r.gas_fee_source },
    takerPays: r.taker_pays,
    proceeds: r.proceeds,
    offersHash: r.offers_hash,
    band: parseJson<Band>(r.band),
    quotedAt: r.quoted_at,
    expiresAt: r.expires_at,
    resolver:
      r.resolver === null
        ? null
        : { address: r.resolver, name: r.resolver_name ?? "", solanaAddress: r.resolver_solana_address ?? null },
    replies: JSON.parse(r.replies) as Replies,
    steering: withMaxOutput(parseJson<Steering>(r.steering)),
    settlement: parseJson<Settlement>(r.settlement),
    signing: parseJson<unknown>(r.signing),
    fillKind: r.fill_kind,
    nativePrice: r.native_price,
  };
}

/** Quotes stored before the band guard had an upper bound have no `maxOutput`: it was none. */
function withMaxOutput(steering: Steering | null): Steering | null {
  return steering && { ...steering, maxOutput: steering.maxOutput ?? null };
}
