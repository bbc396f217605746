import { type Claim, claimOpenQuote, releaseClaim } from "../db";
import type { Refusal } from "../errors";
import { quoteExpired, quoteNotOpen } from "./outcomes";

/**
 * The claim of a quote (`claimOpenQuote`: from then on a cancel is refused), started at once so that its
 * D1 round trip runs while the chain simulates the fill. `held` is the refusal when the quote was no
 * longer open; `release` gives a claim up when the submission stops before its fill is signed.
 */
export class QuoteClaim {
  private readonly claiming: Promise<Claim>;

  constructor(
    private readonly db: D1Database,
    private readonly quoteId: string,
    private readonly now: string,
  ) {
    this.claiming = claimOpenQuote(db, quoteId, now);
    this.claiming.catch(() => {});
  }

  async held(): Promise<Refusal | null> {
    const claim = await this.claiming;
    if (claim.claimed) return null;
    if (claim.status === null || claim.status === "expired" || (claim.expiresAt ?? "") <= this.now) {
      return quoteExpired();
    }
    return quoteNotOpen(claim.status);
  }

  async release(): Promise<void> {
    const claim = await this.claiming.catch(() => null);
    if (claim?.claimed) await releaseClaim(this.db, this.quoteId);
  }
}
