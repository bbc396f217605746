import { corridorsOfQuoteId } from "../chains";
import type { RelayConfig } from "../config";
import type { Env } from "../env";
import type { FillNotice } from "../keeper";
import { errorText, log } from "../log";
import { corridorStub } from "../objects";
import type { MovedLimitOrder } from "../schemas";

/** What a corridor hears of a quote that moved: with `fill`, the notice its winner connected there gets. */
export interface QuoteChange {
  quoteId: string;
  fill?: Omit<FillNotice, "corridorKey"> | undefined;
  /** Nothing can fill the quote any more (it was cancelled): what its winner's inventory held for it is free. */
  ended?: true;
}

/** A quote that moved, with the notice its winner hears of the step when there is one. */
export interface QuoteMove {
  quoteId: string;
  fill?: FillNotice | undefined;
  ended?: true;
}

/**
 * Tells the objects hosting event streams that a subject changed (docs/api.md, "Event streams"): a quote's
 * corridor is named by its id's tag, an order's by its record. Each object reads D1 only if a stream of
 * that subject is open there. A settlement step's notice to the winner rides on the same call to its
 * corridor, so each step costs one call per corridor, and the keeper's steps of one moment one call
 * (`QuoteAnnouncements`). Failures are logged, not thrown: a stream that
 * misses a change catches up at its host's next read, a few seconds later.
 */
export function announceQuote(env: Env, config: RelayConfig, quoteId: string, fill?: FillNotice): Promise<void> {
  return announceQuotes(env, config, [{ quoteId, fill }]);
}

/** A quote that was cancelled: its corridor lets go of what it held of its winner's inventory (`QuoteChange.ended`). */
export function announceCancelled(env: Env, config: RelayConfig, quoteId: string): Promise<void> {
  return announceQuotes(env, config, [{ quoteId, ended: true }]);
}

/** Several quotes that moved, in order: one call to each corridor concerned, with its share of them (`announceQuote`). */
export function announceQuotes(env: Env, config: RelayConfig, moves: readonly QuoteMove[]): Promise<void> {
  const byCorridor = new Map<string, QuoteChange[]>();
  for (const { quoteId, fill, ended } of moves) {
    const keys = corridorsOfQuoteId(config, quoteId);
    // The winner's corridor is the tag's unless the configuration dropped it since the quote was accepted.
    const all = fill && !keys.includes(fill.corridorKey) ? [...keys, fill.corridorKey] : keys;
    for (const key of all) {
      const notice =
        fill?.corridorKey === key
          ? { resolver: fill.resolver, status: fill.status, txHash: fill.txHash, fault: fill.fault }
          : undefined;
      const change: QuoteChange = { quoteId, fill: notice, ...(ended ? { ended } : {}) };
      const changes = byCorridor.get(key);
      if (changes) changes.push(change);
      else byCorridor.set(key, [change]);
    }
  }
  return settle([...byCorridor].map(([key, changes]) => corridorStub(env, key).quotesChanged(changes)));
}

/**
 * Quote moves made in one turn of the event loop, announced together (`send`, with `announceQuotes`): the
 * records of a burst of submissions, written in one D1 batch, then make one call per corridor, not one each.
 */
export class QuoteAnnouncements {
  private moves: QuoteMove[] = [];

  constructor(private readonly send: (moves: QuoteMove[]) => void) {}

  add(move: QuoteMove): void {
    if (this.moves.length === 0) {
      setTimeout(() => {
        const moves = this.moves;
        this.moves = [];
        this.send(moves);
      }, 0);
    }
    this.moves.push(move);
  }
}

export function announceLimitOrders(env: Env, moved: readonly MovedLimitOrder[]): Promise<void> {
  return settle(moved.map((m) => corridorStub(env, m.corridor).limitOrderChanged(m.limitOrderId)));
}

async function settle(calls: Promise<void>[]): Promise<void> {
  for (const r of await Promise.allSettled(calls)) {
    if (r.status === "rejected") log.warn("stream_announce_failed", { error: errorText(r.reason) });
  }
}
