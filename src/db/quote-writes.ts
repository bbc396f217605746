import type { Offer, Replies, TimelineEntry } from "../schemas";
import { toJson } from "./json";
import type { QuoteRow } from "./quotes";

/**
 * The statements that write a quote made by an auction: the corridor queues them (src/db/write-behind.ts)
 * and the keeper adds timeline entries. Reads are in src/db/quotes.ts.
 */

/** Statements that store a new quote with its offers and first timeline events; run them in one batch. */
export function insertQuoteStatements(
  db: D1Database,
  quote: QuoteRow,
  offers: (Offer & { signature?: string | null; received?: string | null })[],
  timeline: TimelineEntry[],
): D1PreparedStatement[] {
  const q = quote;
  const statements = [
    db
      .prepare(
        `INSERT INTO quotes (quote_id, rfq_id, chain_id, status, final, taker, recipient, sell_token, buy_token,
           sell_amount, received, fee_token, fee_amount, gas_fee_token, gas_fee_amount, taker_pays, proceeds,
           offers_hash, band, quoted_at, expires_at, resolver, resolver_name, replies, steering, settlement,
           signing, updated_at, gas_fee_source, fill_kind, native_price, resolver_solana_address, min_received,
           slippage_bps)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
           ?22, ?23, ?24, ?25, ?26, ?27, ?20, ?28, ?29, ?30, ?31, ?32, ?33)`,
      )
      .bind(
        q.quoteId,
        q.rfqId,
        q.chainId,
        q.status,
        q.final ? 1 : 0,
        q.taker,
        q.recipient,
        q.sellToken,
        q.buyToken,
        q.sellAmount,
        q.received,
        q.fee.token,
        q.fee.amount,
        q.gasFee.token,
        q.gasFee.amount,
        q.takerPays,
        q.proceeds,
        q.offersHash,
        toJson(q.band),
        q.quotedAt,
        q.expiresAt,
        q.resolver?.address ?? null,
        q.resolver?.name ?? null,
        JSON.stringify(q.replies),
        toJson(q.steering),
        toJson(q.settlement),
        toJson(q.signing),
        q.gasFee.source,
        q.fillKind ?? "rfq",
        q.nativePrice ?? null,
        // A quote queued before the column existed names no Solana key.
        q.resolver?.solanaAddress ?? null,
        q.minReceived,
        q.slippageBps,
      ),
  ];
  if (offers.length > 0) statements.push(offersStatement(db, q.quoteId, offers));
  for (const t of timeline) statements.push(timelineStatement(db, q.quoteId, t));
  return statements;
}

/**
 * One statement for all of a quote's offers, however many resolvers bid: the offers are one JSON parameter
 * that SQLite unpacks, so a quote's share of a D1 batch does not grow with its resolvers
 * (docs/architecture.md, "Write-behind").
 */
function offersStatement(
  db: D1Database,
  quoteId: string,
  offers: (Offer & { signature?: string | null; received?: string | null })[],
): D1PreparedStatement {
  const rows = offers.map((o) => [
    o.rank,
    o.resolver,
    o.name,
    o.outputAmount,
    o.status,
    o.latencyMs,
    o.won ? 1 : 0,
    o.signature ?? null,
    o.received ?? null,
    o.sellAmount ?? null,
  ]);
  return db
    .prepare(
      `INSERT INTO offers (quote_id, rank, resolver, name, output_amount, status, latency_ms, won, signature,
         received, sell_amount)
       SELECT ?1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6,
         value ->> 7, value ->> 8, value ->> 9
       FROM json_each(?2)`,
    )
    .bind(quoteId, JSON.stringify(rows));
}

/**
 * Statements that replace a stored quote's offers with `offers` (ranked again) and set its reply counts
 * and offers hash to match, once a losing bid's signature failed its check after the quote was answered
 * (docs/resolver-protocol.md, "When signatures are checked"); run them in one batch. The offers are
 * deleted and inserted again because their key is (quote_id, rank), which a re-ranking shifts.
 */
export function correctOffersStatements(
  db: D1Database,
  quoteId: string,
  offers: (Offer & { signature?: string | null; received?: string | null })[],
  replies: Replies,
  offersHash: string,
): D1PreparedStatement[] {
  return [
    db
      .prepare("UPDATE quotes SET replies = ?, offers_hash = ? WHERE quote_id = ?")
      .bind(JSON.stringify(replies), offersHash, quoteId),
    db.prepare("DELETE FROM offers WHERE quote_id = ?").bind(quoteId),
    ...(offers.length > 0 ? [offersStatement(db, quoteId, offers)] : []),
  ];
}

/** A late reply brought the auction's reply counts up to date. */
export function updateQuoteRepliesStatement(db: D1Database, quoteId: string, replies: Replies): D1PreparedStatement {
  return db.prepare("UPDATE quotes SET replies = ? WHERE quote_id = ?").bind(JSON.stringify(replies), quoteId);
}

export function timelineStatement(db: D1Database, quoteId: string, entry: TimelineEntry): D1PreparedStatement {
  return db
    .prepare("INSERT INTO timeline_events (quote_id, at, event, detail) VALUES (?, ?, ?, ?)")
    .bind(quoteId, entry.at, entry.event, toJson(entry.detail));
}
