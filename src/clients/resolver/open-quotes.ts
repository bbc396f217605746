import type { InventoryEntry } from "../../protocol/node-frames";
import type { RfqFrame } from "../../protocol/relay-frames";

/** What one bid, or one won quote, would take from the node's inventory. */
interface Owed {
  quoteId: string;
  taker: string;
  chainId: number;
  token: string;
  amount: bigint;
  /** The quote's on-chain deadline (ms): nothing can fill it after, so it is let go then at the latest. */
  until: number;
  /** When the relay said it settled: what it took shows in reads started after, and no longer counts. */
  spentAt?: number;
}

/** How long a settled quote is counted past its settlement at most, waiting for a read that shows it. */
const SPENT_COUNTED_MS = 60_000;

/** How often, at most, what is past its deadline is let go: an rfq costs the same however many quotes are open. */
const SWEEP_EVERY_MS = 1_000;

/** A token's key on a chain, spelled as `sameToken` compares it (EVM addresses in any case). */
const tokenKey = (chainId: number, token: string) =>
  `${chainId}|${token.startsWith("0x") ? token.toLowerCase() : token}`;

/** Whose open quote it is: a taker's (EVM addresses in any case), or null for what every taker shares. */
const takerKey = (taker: string | null) => (taker === null ? "" : taker.startsWith("0x") ? taker.toLowerCase() : taker);

/**
 * The node's own account of its open quotes (docs/reference-resolver.md, "Open quotes"), the same the
 * relay keeps (docs/resolver-protocol.md, "Inventory held for a taker's open quotes"): a quote it won holds
 * its output for its taker until it fails, settles, or its deadline passes (let go within a second of it),
 * so the node never bids one taker two quotes its balance cannot both fill; other takers' open quotes,
 * which they may never submit, hold nothing against this one's, and the relay blames the node for none of
 * the shortfalls its own fills cause. A settled quote's output has left the balance for every taker, and
 * counts for all of them until a read shows it. A bid is remembered until its `result` says whether it won.
 */
export class OpenQuotes {
  /** Bids awaiting their result, by rfq id. */
  private readonly bids = new Map<string, Owed>();
  /** Quotes won and not yet ended, by quote id. */
  private readonly won = new Map<string, Owed>();
  /** What the won quotes hold, by taker (`takerKey`; settled ones under every taker's, "") and token (`tokenKey`). */
  private readonly sums = new Map<string, bigint>();
  /** The won quotes that settled, until a read shows it. */
  private readonly spent = new Set<string>();
  private nextSweep = 0;

  /** The node bid `amount` on the rfq. */
  bid(rfq: RfqFrame, amount: bigint, now: number): void {
    this.sweep(now);
    const { quoteId, taker, chainId, buyToken: token } = rfq;
    this.bids.set(rfq.rfqId, { quoteId, taker, chainId, token, amount, until: rfq.deadline * 1000 });
  }

  /** The relay's `result`: a won bid's output is held from now on; a lost one's is forgotten. */
  result(rfqId: string, won: boolean): void {
    const bid = this.bids.get(rfqId);
    this.bids.delete(rfqId);
    if (!bid || !won) return;
    this.won.set(bid.quoteId, bid);
    this.add(bid, bid.amount);
  }

  /** The relay's `execution`: a failed quote is let go; a settled one counts, for every taker, until a read shows it spent. */
  execution(quoteId: string, status: string, now: number): void {
    const quote = this.won.get(quoteId);
    if (!quote) return;
    if (status === "failed") this.forget(quoteId);
    if (status === "settled" && quote.spentAt === undefined) {
      this.add(quote, -quote.amount);
      const spent = { ...quote, spentAt: now, until: Math.max(quote.until, now + SPENT_COUNTED_MS) };
      this.won.set(quoteId, spent);
      this.add(spent, spent.amount);
      this.spent.add(quoteId);
    }
  }

  /**
   * What the node's open quotes for `taker` (null: none), and its settled ones, hold of `token` on `chainId`
   * at `now`, against inventory read at `readAt` (ms, when the read started; null: none yet).
   */
  held(taker: string | null, chainId: number, token: string, now: number, readAt: number | null): bigint {
    this.sweep(now);
    for (const quoteId of this.spent) {
      const spentAt = this.won.get(quoteId)?.spentAt;
      if (readAt !== null && spentAt !== undefined && readAt >= spentAt) this.forget(quoteId);
    }
    const key = tokenKey(chainId, token);
    const own = taker === null ? 0n : (this.sums.get(`${takerKey(taker)}|${key}`) ?? 0n);
    return own + (this.sums.get(`${takerKey(null)}|${key}`) ?? 0n);
  }

  /**
   * The inventory read at `readAt` less what the open quotes hold for `taker` (null: what any taker shares):
   * what the node bids that taker from, and what its ladders promise anyone.
   */
  free(entries: readonly InventoryEntry[], taker: string | null, now: number, readAt: number | null): InventoryEntry[] {
    return entries.map((entry) => {
      const held = this.held(taker, entry.chainId, entry.token, now, readAt);
      const less = (figure: string) => {
        const left = BigInt(figure) - held;
        return (left > 0n ? left : 0n).toString();
      };
      return held === 0n ? entry : { ...entry, balance: less(entry.balance), allowance: less(entry.allowance) };
    });
  }

  /** How many quotes it holds for, and bids it awaits. */
  size(): { won: number; bids: number } {
    return { won: this.won.size, bids: this.bids.size };
  }

  /** Adds `amount` to what the quote's taker (every taker's, once it settled) holds of its token. */
  private add(quote: Owed, amount: bigint): void {
    const key = `${takerKey(quote.spentAt === undefined ? quote.taker : null)}|${tokenKey(quote.chainId, quote.token)}`;
    const left = (this.sums.get(key) ?? 0n) + amount;
    if (left === 0n) this.sums.delete(key);
    else this.sums.set(key, left);
  }

  private forget(quoteId: string): void {
    const quote = this.won.get(quoteId);
    if (!quote) return;
    this.won.delete(quoteId);
    this.spent.delete(quoteId);
    this.add(quote, -quote.amount);
  }

  /** Lets go of what is past its deadline (a result or execution that never came), at most once a second. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [rfqId, bid] of this.bids) if (bid.until <= now) this.bids.delete(rfqId);
    for (const [quoteId, quote] of this.won) if (quote.until <= now) this.forget(quoteId);
  }
}
