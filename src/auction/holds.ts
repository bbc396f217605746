/**
 * What a corridor's open quotes hold of their winners' inventory (docs/resolver-protocol.md, "Inventory
 * held for open quotes"): each quote's output, in its buy token, against its winner's last chain-read
 * balance and allowance, until the quote ends. A resolver is asked, or may win, only up to what is free.
 */

/** One open quote's hold on its winner's inventory. */
export interface Hold {
  quoteId: string;
  /** The winner, lower-case. */
  resolver: string;
  token: string;
  amount: bigint;
  /**
   * When nothing can fill the quote any more (ms): its on-chain deadline. The hold ends then at the
   * latest, so holds whose end the corridor never hears of still go.
   */
  until: number;
  /**
   * When the corridor heard the quote settled: its output has left the winner's balance, but a read
   * started before then still shows it, so the hold counts against those reads only.
   */
  spentAt?: number;
}

/** Where holds are kept so that they outlive the corridor object's memory (`kvHoldStore`). */
export interface HoldStore {
  all(): Hold[];
  put(hold: Hold): void;
  delete(quoteId: string): void;
}

/** What a corridor hears of a quote that moved, as far as holds go (src/streams/announce.ts, `QuoteChange`). */
export interface QuoteMoved {
  quoteId: string;
  fill?: { status: string } | undefined;
  /** Nothing can fill the quote any more: it was cancelled. */
  ended?: boolean | undefined;
}

/**
 * How long a settled quote's hold may outlive its deadline while waiting for a read of its winner
 * started after the settlement: reads are due every 10 s (src/nodes/inventory-checks.ts, READ_EVERY_MS).
 */
export const SPENT_HOLD_MS = 30_000;

/** One resolver's holds: their sums per token (a corridor has two), and its settled quotes' ids. */
interface Winner {
  sums: { token: string; amount: bigint }[];
  spent: Set<string>;
}

/**
 * A corridor's holds, by quote, summed by winner and token so that `held` costs the same however many
 * quotes are open. Pure but for its store: time comes in as `now`, and when a node's last chain read
 * started comes in from the caller. Memory is bounded: every hold ends at its `until` at the latest,
 * taken in order of `until` from a heap as time passes.
 */
export class InventoryHolds {
  private holds: Map<string, Hold> | null = null;
  private readonly winners = new Map<string, Winner>();
  /** Every hold's end, earliest first; an entry whose hold ended or moved is skipped when it comes up. */
  private readonly ends = new EndHeap();

  constructor(
    private readonly store: HoldStore,
    private readonly sameToken: (a: string, b: string) => boolean,
  ) {}

  /**
   * What the resolver's open quotes hold of `token` at `now`, to be taken from a chain read of it started
   * at `readAt` (null: no read has succeeded yet). A settled quote's hold counts only against reads
   * started before it settled, and ends once a later one is in.
   */
  held(resolver: string, token: string, now: number, readAt: number | null): bigint {
    this.sweep(now);
    const winner = this.winners.get(resolver.toLowerCase());
    if (!winner) return 0n;
    for (const quoteId of winner.spent) {
      const spentAt = this.holds?.get(quoteId)?.spentAt;
      if (readAt !== null && spentAt !== undefined && readAt >= spentAt) this.end(quoteId);
    }
    return winner.sums.find((s) => this.sameToken(s.token, token))?.amount ?? 0n;
  }

  /** Holds a quote's output against its winner's inventory (another winner's hold of the quote ends). */
  hold(hold: Hold, now: number): void {
    this.sweep(now);
    this.end(hold.quoteId);
    const kept = { ...hold, resolver: hold.resolver.toLowerCase() };
    this.keep(kept);
    this.store.put(kept);
  }

  /** The quote ended unfilled (failed, cancelled, or its winner never signed): its hold ends now. */
  end(quoteId: string): void {
    const holds = this.load();
    const hold = holds.get(quoteId);
    if (!hold) return;
    holds.delete(quoteId);
    const winner = this.winners.get(hold.resolver);
    const sum = winner?.sums.find((s) => this.sameToken(s.token, hold.token));
    if (sum) sum.amount -= hold.amount;
    winner?.spent.delete(quoteId);
    if (winner?.spent.size === 0 && winner.sums.every((s) => s.amount === 0n)) this.winners.delete(hold.resolver);
    this.store.delete(quoteId);
  }

  /**
   * The quote settled: its hold counts on until a read of the winner started after `now` is in
   * (`held`), and for that at least SPENT_HOLD_MS, even past its deadline.
   */
  settled(quoteId: string, now: number): void {
    const hold = this.load().get(quoteId);
    if (!hold || hold.spentAt !== undefined) return;
    const spent = { ...hold, spentAt: now, until: Math.max(hold.until, now + SPENT_HOLD_MS) };
    this.end(quoteId);
    this.keep(spent);
    this.store.put(spent);
  }

  /** Quotes that moved: a settled one's hold is spent, a failed or cancelled one's ends. */
  moved(changes: readonly QuoteMoved[], now: number): void {
    for (const { quoteId, fill, ended } of changes) {
      if (fill?.status === "settled") this.settled(quoteId, now);
      else if (fill?.status === "failed" || ended) this.end(quoteId);
    }
  }

  /** How many holds are kept. */
  size(): number {
    return this.load().size;
  }

  /** Ends every hold whose `until` has come. */
  private sweep(now: number): void {
    const holds = this.load();
    for (let next = this.ends.peek(); next && next.until <= now; next = this.ends.peek()) {
      this.ends.pop();
      // The entry of a hold that ended, or was held again since, is not this hold's end.
      if (holds.get(next.quoteId)?.until === next.until) this.end(next.quoteId);
    }
  }

  /** The holds, read from the store at first use (after the object restarted, say). */
  private load(): Map<string, Hold> {
    if (this.holds) return this.holds;
    this.holds = new Map();
    for (const hold of this.store.all()) this.keep(hold);
    return this.holds;
  }

  private keep(hold: Hold): void {
    this.load().set(hold.quoteId, hold);
    const winner = this.winners.get(hold.resolver) ?? { sums: [], spent: new Set<string>() };
    this.winners.set(hold.resolver, winner);
    const sum = winner.sums.find((s) => this.sameToken(s.token, hold.token));
    if (sum) sum.amount += hold.amount;
    else winner.sums.push({ token: hold.token, amount: hold.amount });
    if (hold.spentAt !== undefined) winner.spent.add(hold.quoteId);
    this.ends.push({ until: hold.until, quoteId: hold.quoteId });
  }
}

/** A binary min-heap of holds' ends by `until`. */
class EndHeap {
  private readonly items: { until: number; quoteId: string }[] = [];

  peek(): { until: number; quoteId: string } | undefined {
    return this.items[0];
  }

  push(item: { until: number; quoteId: string }): void {
    const { items } = this;
    items.push(item);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as typeof item).until <= item.until) break;
      [items[i], items[parent]] = [items[parent] as typeof item, item];
      i = parent;
    }
  }

  pop(): void {
    const { items } = this;
    const last = items.pop();
    if (!last || items.length === 0) return;
    items[0] = last;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < items.length && (items[l] as typeof last).until < (items[least] as typeof last).until) least = l;
      if (r < items.length && (items[r] as typeof last).until < (items[least] as typeof last).until) least = r;
      if (least === i) return;
      [items[i], items[least]] = [items[least] as typeof last, items[i] as typeof last];
      i = least;
    }
  }
}
