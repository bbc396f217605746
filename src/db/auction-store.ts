import type { Offer, Replies, TimelineEntry } from "../schemas/quote";
import { insertQuoteStatements, type QuoteRow } from "./quotes";
import { countAuctionStatements } from "./resolver-stats";

/** One auction's part in each asked resolver's counters (migrations/0002_resolver_stats.sql). */
export interface AuctionTally {
  asked: Iterable<string>;
  answered: ReadonlySet<string>;
  winner: string | null;
  at: string;
}

/** Where an auction keeps what it decided: the AuctionHouse's storage port (src/auction/house.ts). */
export interface AuctionStore {
  /** The quote with its offers (and their signatures) and timeline, and the tally, in one write. */
  saveQuote(
    quote: QuoteRow,
    offers: (Offer & { signature: string })[],
    timeline: TimelineEntry[],
    tally: AuctionTally,
  ): Promise<void>;
  /** An auction without a quote: its tally alone. */
  saveTally(tally: AuctionTally): Promise<void>;
  /** Replies that came after the quote was stored. */
  saveReplies(quoteId: string, replies: Replies): Promise<void>;
}

/** The auction's store in D1: every write one batch. */
export function d1AuctionStore(db: D1Database): AuctionStore {
  return {
    async saveQuote(quote, offers, timeline, tally) {
      await db.batch([
        ...insertQuoteStatements(db, quote, offers, timeline),
        ...countAuctionStatements(db, tally, tally.at),
      ]);
    },
    async saveTally(tally) {
      await db.batch(countAuctionStatements(db, tally, tally.at));
    },
    async saveReplies(quoteId, replies) {
      await db.prepare("UPDATE quotes SET replies = ? WHERE quote_id = ?").bind(JSON.stringify(replies), quoteId).run();
    },
  };
}
