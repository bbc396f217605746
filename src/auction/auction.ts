import type { Replies } from "../schemas/quote";
import type { ValidBid } from "./rank";

/**
 * One RFQ's reply book: who was asked, who answered how, and when it may close (at the window or as
 * soon as every asked node has answered and every bid is checked). No I/O: the corridor feeds it.
 */
export class Auction {
  readonly bids: ValidBid[] = [];
  readonly bidders = new Set<string>();
  private readonly answered = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
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
    if (sentAt === undefined) return "not_asked";
    if (this.answered.has(node)) return "duplicate";
    this.answered.add(node);
    if (this.closed || now - sentAt > this.windowMs) {
      this.late++;
      return "late";
    }
    return "ok";
  }

  /** Latency of a node's reply, from its rfq frame. */
  latency(node: string, now: number): number {
    return now - (this.asked.get(node) ?? now);
  }

  /** A claimed bid still being checked (its signature); the auction waits for it before closing. */
  checking(node: string, check: Promise<ValidBid | string>): void {
    this.bidders.add(node);
    const p = check.then((outcome) => {
      if (typeof outcome === "string") this.rejected++;
      else this.bids.push(outcome);
      this.pending.delete(p);
      this.maybeFinish();
    });
    this.pending.add(p);
  }

  reject(node: string): void {
    this.bidders.add(node);
    this.rejected++;
    this.maybeFinish();
  }

  decline(): void {
    this.declined++;
    this.maybeFinish();
  }

  /** The window ran out: close once the bids in hand are checked. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.pending]);
    this.resolveDone();
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
    if (!this.closed && this.answered.size === this.asked.size && this.pending.size === 0) void this.close();
  }
}
