import { resolverKey } from "../ids";
import type { Replies } from "../schemas";
import type { ValidBid } from "./rank";

/**
 * One RFQ's reply book: who was asked, who answered how, and when it may close (at the window, or as
 * soon as every awaited node has answered: the asked nodes that answer their rfqs, src/auction/reply-memory.ts,
 * or every asked node when none is known to). No I/O: the corridor feeds it checked replies, and keeps its
 * accepted bids as `B` (the auction house's carry their amounts).
 */
export class Auction<B extends ValidBid = ValidBid> {
  readonly bids: B[] = [];
  readonly bidders = new Set<string>();
  /** Nodes that replied (bid, decline or rejected), in the window or, once closed, late. */
  readonly answered = new Set<string>();
  /** How soon each reply inside the window came after its rfq (ms), by node. */
  readonly replyMs = new Map<string, number>();
  /** Asked nodes whose socket closed before they answered: no reply is coming from them. */
  private readonly gone = new Set<string>();
  private rejected = 0;
  private declined = 0;
  private late = 0;
  private closed = false;
  private resolveDone: () => void = () => {};
  /** Settles when the auction closes. */
  readonly done: Promise<void>;

  constructor(
    readonly rfqId: string,
    /** Asked node address (lowercase) → when its rfq frame was sent (ms). */
    readonly asked: ReadonlyMap<string, number>,
    readonly windowMs: number,
    /** The asked nodes whose replies it waits for; empty: all of them. */
    private readonly awaited: ReadonlySet<string> = new Set(),
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * Claims the node's one reply. Returns why it cannot count: not asked, already answered, or past the
   * window (counted as late).
   */
  claim(node: string, now: number): "ok" | "not_asked" | "duplicate" | "late" {
    const sentAt = this.asked.get(node);
    if (sentAt === undefined || this.gone.has(node)) return "not_asked";
    if (this.answered.has(node)) return "duplicate";
    this.answered.add(node);
    if (this.closed || now - sentAt > this.windowMs) {
      this.late++;
      return "late";
    }
    this.replyMs.set(node, now - sentAt);
    return "ok";
  }

  /** Latency of a node's reply, from its rfq frame. */
  latency(node: string, now: number): number {
    return now - (this.asked.get(node) ?? now);
  }

  /** A claimed bid that passed every check. */
  accept(node: string, bid: B): void {
    this.bidders.add(node);
    this.bids.push(bid);
    this.maybeFinish();
  }

  reject(node: string): void {
    this.bidders.add(node);
    this.rejected++;
    this.maybeFinish();
  }

  /**
   * A bid accepted unverified whose signature, checked after the close, is not the node's: it was never
   * valid, and counts as rejected (docs/resolver-protocol.md, "When signatures are checked").
   */
  disqualify(node: string): void {
    const i = this.bids.findIndex((b) => resolverKey(b.resolver) === node);
    if (i < 0) return;
    this.bids.splice(i, 1);
    this.rejected++;
  }

  decline(): void {
    this.declined++;
    this.maybeFinish();
  }

  /** An asked node disconnected: it stays `noReply`, and the auction no longer waits for it. */
  drop(node: string): void {
    if (!this.asked.has(node) || this.answered.has(node)) return;
    this.gone.add(node);
    this.maybeFinish();
  }

  /** The window ran out, or every asked node has answered. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.resolveDone();
  }

  /** Asked nodes that have not replied and whose socket is still open: at the window's end, its misses. */
  unanswered(): string[] {
    return [...this.asked.keys()].filter((node) => !this.answered.has(node) && !this.gone.has(node));
  }

  replies(): Replies {
    return {
      valid: this.bids.length,
      rejected: this.rejected,
      declined: this.declined,
      noReply: this.asked.size - this.answered.size,
      late: this.late,
    };
  }

  private maybeFinish(): void {
    if (this.awaited.size > 0) {
      for (const node of this.awaited) if (!this.answered.has(node) && !this.gone.has(node)) return;
      this.close();
    } else if (this.answered.size + this.gone.size >= this.asked.size) this.close();
  }
}
