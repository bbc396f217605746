import type { QuoteRow } from "../db";
import {
  addDayCounts,
  correctOffersStatements,
  countAllStatements,
  type DayCounts,
  dayOf,
  insertQuoteStatements,
  updateQuoteRepliesStatement,
  type WriteStatements,
} from "../db";
import { type AuctionCounts, auctionDayCounts } from "../resolvers";
import type { Offer, Replies, TimelineEntry } from "../schemas";

/**
 * An offer as stored: its bid's signature, and what it leaves the recipient, are kept for settlement (a fade
 * fills with the next offer, docs/settlement.md "When the winner fades"), never shown.
 */
export type StoredOffer = Offer & { signature: string; received?: string };

/**
 * One auction's part in the reliability counters (docs/reliability.md): who was asked, who answered in
 * time, who won, and how soon each reply inside the window came (ms, by lowercase address).
 */
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

/** The counters of one auction as plain data: each asked resolver's day counts, by lowercase address. */
interface Counters {
  byAddress: [string, DayCounts][];
  at: string;
}

/** One of the store's writes as plain JSON data, so it can wait in a queue (src/db/write-behind.ts). */
export type AuctionWrite =
  | { kind: "quote"; quote: QuoteRow; offers: StoredOffer[]; timeline: TimelineEntry[]; counters: Counters }
  | { kind: "counters"; counters: Counters }
  | { kind: "replies"; quoteId: string; replies: Replies }
  | { kind: "offers"; quoteId: string; offers: StoredOffer[]; replies: Replies; offersHash: string };

const countersOf = (c: AuctionCounts): Counters => ({ byAddress: [...auctionDayCounts(c)], at: c.at });

/** The D1 statements of one write but its counters, which a batch writes summed (`summedCounters`). */
function rowStatements(db: D1Database, w: AuctionWrite): D1PreparedStatement[] {
  switch (w.kind) {
    case "quote":
      return insertQuoteStatements(db, w.quote, w.offers, w.timeline);
    case "counters":
      return [];
    case "replies":
      return [updateQuoteRepliesStatement(db, w.quoteId, w.replies)];
    case "offers":
      return correctOffersStatements(db, w.quoteId, w.offers, w.replies, w.offersHash);
  }
}

/** The counters of a batch of writes, summed per resolver and day: one row each. */
function summedCounters(db: D1Database, writes: readonly AuctionWrite[]): D1PreparedStatement[] {
  const days = new Map<string, { at: string; byAddress: Map<string, DayCounts> }>();
  for (const w of writes) {
    if (w.kind !== "quote" && w.kind !== "counters") continue;
    const day = days.get(dayOf(w.counters.at)) ?? { at: w.counters.at, byAddress: new Map() };
    days.set(dayOf(w.counters.at), day);
    for (const [address, counts] of w.counters.byAddress) {
      day.byAddress.set(address, addDayCounts(day.byAddress.get(address) ?? {}, counts));
    }
  }
  return [...days.values()].flatMap((day) => countAllStatements(db, day.byAddress, day.at));
}

/** How the corridor's write-behind queue writes auctions to D1 (src/db/write-behind.ts). */
export const auctionWrites: WriteStatements<AuctionWrite> = { each: rowStatements, merged: summedCounters };

/** A store that hands each write, as data, to `write` (the corridor's write-behind queue, src/db/write-behind.ts). */
export function auctionStore(write: (w: AuctionWrite) => Promise<void>): AuctionStore {
  return {
    store: (quote, offers, timeline, counts) =>
      write({ kind: "quote", quote, offers, timeline, counters: countersOf(counts) }),
    count: (counts) => write({ kind: "counters", counters: countersOf(counts) }),
    storeReplies: (quoteId, replies) => write({ kind: "replies", quoteId, replies }),
    correctOffers: (quoteId, offers, replies, offersHash) =>
      write({ kind: "offers", quoteId, offers, replies, offersHash }),
  };
}
