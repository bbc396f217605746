import type { RfqTerms } from "../chains";
import type { Clock } from "./clock";
import type { AuctionNodes, CorridorPort } from "./corridor-port";
import { EndHeap } from "./end-heap";

/**
 * What a taker's own open quotes hold of the resolvers that won them (docs/resolver-protocol.md, "Inventory
 * held for a taker's open quotes"): each quote's output, in its buy token, against its winner's last
 * chain-read balance, counted for that taker alone. A resolver is asked, or may win, for a taker only up to
 * its balance less what that taker's own open quotes hold on it, so one taker cannot have one resolver win
 * two quotes it cannot both fill; another taker's open quotes hold nothing against it (docs/security.md,
 * "Two quotes drain one balance"). A settled quote's output, gone from the balance, counts for every taker
 * until a read shows it gone.
 */

/** One open quote's hold: its output, on its winner, for its taker. */
export interface TakerHold {
  quoteId: string;
  taker: string;
  resolver: string;
  token: string;
  amount: bigint;
  /** The quote's on-chain deadline (ms): nothing can fill it after, so the hold ends then at the latest. */
  until: number;
  /**
   * When the corridor heard the quote settled: its output has left the winner's balance, but a read
   * started before then still shows it, so the hold counts against those reads only.
   */
  spentAt?: number;
}

/** What a corridor hears of a quote that moved, as far as holds go (src/streams/announce.ts, `QuoteChange`). */
export interface QuoteMoved {
  quoteId: string;
  fill?: { status: string } | undefined;
  /** Nothing can fill the quote any more: it was cancelled. */
  ended?: boolean | undefined;
}

/**
 * How long a settled quote's hold may outlive its deadline while waiting for a read of its winner started
 * after the settlement: reads are due every 10 s (src/nodes/inventory-checks.ts, READ_EVERY_MS).
 */
export const SPENT_HOLD_MS = 30_000;

const pairKey = (taker: string, resolver: string) => `${taker.toLowerCase()}|${resolver.toLowerCase()}`;

/** Amounts summed by key and token (a corridor has two tokens, compared as the chain compares them). */
class Sums {
  private readonly sums = new Map<string, { token: string; amount: bigint }[]>();

  constructor(private readonly sameToken: (a: string, b: string) => boolean) {}

  get(key: string, token: string): bigint {
    return this.sums.get(key)?.find((s) => this.sameToken(s.token, token))?.amount ?? 0n;
  }

  add(key: string, token: string, amount: bigint): void {
    const sums = this.sums.get(key) ?? [];
    this.sums.set(key, sums);
    const sum = sums.find((s) => this.sameToken(s.token, token));
    if (sum) sum.amount += amount;
    else sums.push({ token, amount });
    if (sums.every((s) => s.amount === 0n)) this.sums.delete(key);
  }
}

/**
 * A corridor's holds, by quote, summed by taker and winner so that `held` costs the same however many
 * quotes are open. A settled quote's output has left its winner's balance for every taker's auction alike:
 * it counts against every taker, but only against reads of the winner started before it settled, so it
 * lasts one read at most and holds back nothing that is still there. Pure: time comes in as `now`, and when
 * a node's last chain read started as `readAt`. Memory is bounded twice: every hold ends at its `until` at
 * the latest (the quote's deadline, taken from a heap as time passes), and at most `max` are kept
 * (`limits.quoteHoldsPerCorridor`); past it, the hold that ends soonest is let go first, and a submission the
 * book forgot is still judged by the evidence of the relay's own fills (docs/settlement.md, "When the relay
 * spent the winner's balance").
 */
export class TakerHolds {
  private readonly holds = new Map<string, TakerHold>();
  /** Open quotes' outputs by taker and winner (`pairKey`). */
  private readonly open: Sums;
  /** Settled quotes' outputs by winner, for every taker, until a read shows them spent. */
  private readonly spent: Sums;
  /** The settled quotes of each winner (lower-case), whose holds end once a read started after them is in. */
  private readonly spentOf = new Map<string, Set<string>>();
  /** Every hold's end, earliest first; an entry whose hold ended or moved is skipped when it comes up. */
  private readonly ends = new EndHeap();

  constructor(
    private readonly max: number,
    sameToken: (a: string, b: string) => boolean,
  ) {
    this.open = new Sums(sameToken);
    this.spent = new Sums(sameToken);
  }

  /**
   * What `taker`'s open quotes won by `resolver`, and every settled quote of `resolver`'s, hold of `token`
   * at `now`, to be taken from a chain read of the resolver started at `readAt` (null: none has succeeded
   * yet). A settled quote's hold counts only against reads started before it settled, and ends once a later
   * one is in.
   */
  held(taker: string, resolver: string, token: string, now: number, readAt: number | null): bigint {
    this.sweep(now);
    const winner = resolver.toLowerCase();
    for (const quoteId of this.spentOf.get(winner) ?? []) {
      const spentAt = this.holds.get(quoteId)?.spentAt;
      if (readAt !== null && spentAt !== undefined && readAt >= spentAt) this.end(quoteId);
    }
    return this.open.get(pairKey(taker, resolver), token) + this.spent.get(winner, token);
  }

  /** Holds a quote's output for its taker against its winner (another winner's hold of the quote ends). */
  hold(hold: TakerHold, now: number): void {
    this.sweep(now);
    this.end(hold.quoteId);
    while (this.holds.size >= this.max) this.letGoSoonest();
    this.keep(hold);
  }

  /** The quote ended unfilled (failed, cancelled, or its winner never signed): its hold ends now. */
  end(quoteId: string): void {
    const hold = this.holds.get(quoteId);
    if (!hold) return;
    this.holds.delete(quoteId);
    const winner = hold.resolver.toLowerCase();
    if (hold.spentAt === undefined) {
      this.open.add(pairKey(hold.taker, hold.resolver), hold.token, -hold.amount);
      return;
    }
    this.spent.add(winner, hold.token, -hold.amount);
    const spent = this.spentOf.get(winner);
    spent?.delete(quoteId);
    if (spent?.size === 0) this.spentOf.delete(winner);
  }

  /**
   * The quote settled: its hold counts on, for every taker, until a read of the winner started after `now`
   * is in (`held`), and for that at least SPENT_HOLD_MS, even past its deadline.
   */
  settled(quoteId: string, now: number): void {
    const hold = this.holds.get(quoteId);
    if (!hold || hold.spentAt !== undefined) return;
    this.end(quoteId);
    this.keep({ ...hold, spentAt: now, until: Math.max(hold.until, now + SPENT_HOLD_MS) });
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
    return this.holds.size;
  }

  /** Ends every hold whose `until` has come. */
  private sweep(now: number): void {
    for (let next = this.ends.peek(); next && next.until <= now; next = this.ends.peek()) {
      this.ends.pop();
      // The entry of a hold that ended, or was held again since, is not this hold's end.
      if (this.holds.get(next.id)?.until === next.until) this.end(next.id);
    }
  }

  /** At the cap: the hold that ends soonest goes, so the newest quotes keep theirs. */
  private letGoSoonest(): void {
    for (let next = this.ends.pop(); next; next = this.ends.pop()) {
      if (this.holds.get(next.id)?.until !== next.until) continue;
      this.end(next.id);
      return;
    }
  }

  private keep(hold: TakerHold): void {
    this.holds.set(hold.quoteId, hold);
    const winner = hold.resolver.toLowerCase();
    if (hold.spentAt === undefined) this.open.add(pairKey(hold.taker, hold.resolver), hold.token, hold.amount);
    else {
      this.spent.add(winner, hold.token, hold.amount);
      const spent = this.spentOf.get(winner) ?? new Set<string>();
      this.spentOf.set(winner, spent.add(hold.quoteId));
    }
    // Entries of ended holds wait in the heap for their time; at twice the cap it is rebuilt from the live ones.
    if (this.ends.size() < 2 * this.max) this.ends.push({ id: hold.quoteId, until: hold.until });
    else this.ends.rebuild([...this.holds.values()].map(({ quoteId, until }) => ({ id: quoteId, until })));
  }
}

/**
 * The auction's port as one taker's auction sees its nodes (docs/resolver-protocol.md, "Inventory held
 * for a taker's open quotes"): `covers` asks the last chain read for what that taker's own open quotes
 * hold on the node on top of the amount, so the node is asked (`eligibleNodes`), its bid accepted
 * (`receiveBid`) and its win held (`holdWin`) for the taker only up to what is free of them. Other
 * takers' quotes hold nothing here: a flood of quotes that are never submitted leaves every other
 * taker's share of the node's inventory whole (docs/security.md, "Two quotes drain one balance").
 */
export function forTaker(port: CorridorPort, holds: TakerHolds, taker: string, clock: Clock): CorridorPort {
  const { nodes } = port;
  const held = (address: string, token: string) =>
    holds.held(taker, address, token, clock.now(), nodes.readAt(address));
  const free: AuctionNodes = {
    list: () => nodes.list(),
    send: (address, frame) => nodes.send(address, frame),
    sendToEach: (addresses, frame) => nodes.sendToEach(addresses, frame),
    readAt: (address) => nodes.readAt(address),
    covers: (address, token, atLeast) => nodes.covers(address, token, atLeast + held(address, token)),
  };
  const ladders: CorridorPort["ladders"] = {
    // A ladder's value the node holds but this taker's open quotes hold already is no promise it could keep
    // for this taker: not sampled against its bid (docs/reliability.md, "Honest levels"). One above what it holds is.
    ladderAt: (address, sellToken, buyToken, sellAmount, now) => {
      const out = port.ladders.ladderAt(address, sellToken, buyToken, sellAmount, now);
      const heldForTaker = out !== null && nodes.covers(address, buyToken, out) && !free.covers(address, buyToken, out);
      return heldForTaker ? null : out;
    },
    sampled: (bids, now) => port.ladders.sampled(bids, now),
  };
  return { ...port, nodes: free, ladders };
}

/**
 * Deciding an auction's hold (src/auction/decide.ts, `DecideContext.hold`): the offer about to win holds
 * its output for the quote's taker against what its resolver has free of that taker's other open quotes,
 * if that covers it, checked and held in one turn, so two auctions of one taker deciding at once cannot
 * both count on the same balance; an offer whose resolver then does not sign lets go. A hold lasts until
 * the quote's on-chain deadline at the latest. Null: not covered.
 */
export function holdWin(
  port: Pick<CorridorPort, "nodes">,
  holds: TakerHolds,
  terms: RfqTerms,
  resolver: string,
  amount: bigint,
  clock: Clock,
): (() => void) | null {
  const { quoteId, taker, buyToken: token, deadline } = terms;
  const now = clock.now();
  const held = holds.held(taker, resolver, token, now, port.nodes.readAt(resolver));
  if (!port.nodes.covers(resolver, token, amount + held)) return null;
  holds.hold({ quoteId, taker, resolver, token, amount, until: deadline * 1000 }, now);
  return () => holds.end(quoteId);
}
