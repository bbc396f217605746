import type { Offer } from "../schemas";
import { OPEN_SQL } from "../states";
import { toJson } from "./json";
import { rows } from "./quotes";

/**
 * A faded winner's quote filled by the next offer (docs/settlement.md, "When the winner fades"): the offers
 * the keeper may fill it with, and the record of the fade.
 */

/** A stored offer with what settling it needs: its bid's signature and what it leaves the recipient. */
export interface SignedOffer {
  rank: number;
  resolver: string;
  name: string;
  outputAmount: string;
  status: Offer["status"];
  /** Null for a bid whose signature was not kept. */
  signature: string | null;
  /** Null for an offer stored before offers kept it. */
  received: string | null;
  /** The part of the swap a part's bid sells (docs/legs.md); null for a bid of the whole. */
  sellAmount: string | null;
}

interface SignedOfferRow {
  rank: number;
  resolver: string;
  name: string;
  output_amount: string;
  status: Offer["status"];
  signature: string | null;
  received: string | null;
  sell_amount: string | null;
}

/** A quote's offers by rank, with their signatures and what each leaves the recipient. */
export async function readSignedOffers(db: D1Database, quoteId: string): Promise<SignedOffer[]> {
  const result = await db
    .prepare(
      "SELECT rank, resolver, name, output_amount, status, signature, received, sell_amount FROM offers WHERE quote_id = ? ORDER BY rank",
    )
    .bind(quoteId)
    .all();
  return rows<SignedOfferRow>(result).map((r) => ({
    rank: r.rank,
    resolver: r.resolver,
    name: r.name,
    outputAmount: r.output_amount,
    status: r.status,
    signature: r.signature,
    received: r.received,
    sellAmount: r.sell_amount,
  }));
}

/** What a fade changes of its quote: the offers that fill it now, and the amounts and signing that go with them. */
export interface Fade {
  quoteId: string;
  /** The faded winner's rank (or the faded leg's, of a fill of several makers), now `faded`. */
  fadedRank: number;
  /** The filling offers, now `won`: one whole bid, or the legs of several makers (docs/legs.md). */
  next: readonly SignedOffer[];
  /** The quote's resolver now: the filling bid, or the largest leg's. */
  lead: SignedOffer;
  /** What the filling offers leave the recipient together. */
  received: string;
  /** The protocol fee of the filling offers' outputs. */
  fee: string;
  /** The quote's stored signing with the filling bids in place (the chain's settlement scheme, `withBid`). */
  signing: unknown;
  at: string;
  /** The `fallback` timeline event's detail: whose leg failed and why, who fills it now. */
  detail: Record<string, unknown>;
}

/**
 * The fade as one batch: the faded offer `faded`, every other offer that won and fills no more `lost`, the
 * filling ones `won` (a leg of the faded fill that fills again stays so), the quote's resolver, `received`,
 * fee and signing the replacement's, and a `fallback` timeline event. Only while the quote is open, so a fade
 * recorded again changes nothing once it has moved on.
 */
export function fadeStatements(db: D1Database, fade: Fade): D1PreparedStatement[] {
  const { quoteId, lead } = fade;
  const ranks = JSON.stringify(fade.next.map((o) => o.rank));
  const filling = "rank IN (SELECT value FROM json_each(?2))";
  return [
    db
      .prepare("UPDATE offers SET status = 'faded', won = 0 WHERE quote_id = ?1 AND rank = ?2 AND status = 'won'")
      .bind(quoteId, fade.fadedRank),
    db
      .prepare(`UPDATE offers SET status = 'lost', won = 0 WHERE quote_id = ?1 AND status = 'won' AND NOT ${filling}`)
      .bind(quoteId, ranks),
    db.prepare(`UPDATE offers SET status = 'won', won = 1 WHERE quote_id = ?1 AND ${filling}`).bind(quoteId, ranks),
    db
      .prepare(
        `UPDATE quotes SET resolver = ?2, resolver_name = ?3, received = ?4, fee_amount = ?5, signing = ?6,
           updated_at = ?7
         WHERE quote_id = ?1 AND status IN (${OPEN_SQL})`,
      )
      .bind(quoteId, lead.resolver, lead.name, fade.received, fade.fee, toJson(fade.signing), fade.at),
    db
      .prepare("INSERT INTO timeline_events (quote_id, at, event, detail) VALUES (?, ?, 'fallback', ?)")
      .bind(quoteId, fade.at, toJson(fade.detail)),
  ];
}

/** Records a fade in one atomic batch. */
export async function writeFade(db: D1Database, fade: Fade): Promise<void> {
  await db.batch(fadeStatements(db, fade));
}
