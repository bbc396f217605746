import { correctOffersStatements, insertQuoteStatements, type QuoteRow, updateQuoteReplies } from "../db/quotes";
import { countAllStatements } from "../db/resolver-days";
import { auctionDayCounts } from "../nodes/reliability";
import type { Offer, Replies, TimelineEntry } from "../schemas/quote";

/** An offer as stored: its bid's signature is kept for settlement, never shown. */
export type StoredOffer = Offer & { signature: string };

/**
 * One auction's part in the reliability counters (docs/reliability.md): who was asked, who answered in
 * time, who won, and how soon each reply inside the window came (ms, by lowercase address).
 */
export interface AuctionCounts {
  asked: readonly string[];
  answered: ReadonlySet<string>;
  winner: string | null;
  replyMs: ReadonlyMap<string, number>;
  at: string;
}

/** Where the auction house keeps what its auctions decided. */
export interface AuctionStore {
  /** A new quote with its offers, first timeline events and its auction's counters, in one write. */
  store(quote: QuoteRow, offers: StoredOffer[], timeline: TimelineEntry[], counts: AuctionCounts): Promise<void>;
  /** The counters of an auction that made no quote. */
  count(counts: AuctionCounts): Promise<void>;
  /** A stored quote's reply counts, after a late reply. */
  storeReplies(quoteId: string, replies: Replies): Promise<void>;
  /**
   * A stored quote's offers, reply counts and offers hash, after a losing bid's signature failed its
   * check once the quote was answered: `offers` are those that remain, ranked again.
   */
  correctOffers(quoteId: string, offers: StoredOffer[], replies: Replies, offersHash: string): Promise<void>;
}

/** The relay's store: D1, each write one batch. */
export function d1AuctionStore(db: D1Database): AuctionStore {
  const counters = (c: AuctionCounts) => countAllStatements(db, auctionDayCounts(c), c.at);
  return {
    async store(quote, offers, timeline, counts) {
      await db.batch([...insertQuoteStatements(db, quote, offers, timeline), ...counters(counts)]);
    },
    async count(counts) {
      await db.batch(counters(counts));
    },
    storeReplies: (quoteId, replies) => updateQuoteReplies(db, quoteId, replies),
    async correctOffers(quoteId, offers, replies, offersHash) {
      await db.batch(correctOffersStatements(db, quoteId, offers, replies, offersHash));
    },
  };
}
