import type { QuoteOutcome } from "../auction/quote-outcome";
import { refuse } from "../errors";

/**
 * One taker's limits on quote requests (docs/api.md, "Taker limits"), counted by the taker's object
 * across every corridor: at most `perPeriod` requests in any `periodMs` (429 `rate_limited`), and at most
 * `maxInFlight` auctions in flight (`maxOutstandingRfqs`, 429 `too_many_rfqs`). Each admitted request
 * holds a lease while its auction runs; a lease also lapses on its own after its auction's time.
 */
export interface TakerLimitsInput {
  rfqWindowMs: number;
  maxInFlight: number;
  perPeriod: number;
  periodMs: number;
}

export type Admission = { ok: true } | { ok: false; limit: "rate" } | { ok: false; limit: "in_flight"; held: number };

/** Room over the auction window before a lease that was never given back lapses. */
export const LEASE_SLACK_MS = 5_000;

export class TakerLimits {
  private readonly leases = new Map<string, number>();
  /** When each admitted request of the last period came, oldest first. */
  private requests: number[] = [];

  /** Admits a request as `leaseId` at `now`, unless either limit is reached; a refused request is not counted. */
  admit(leaseId: string, now: number, limits: TakerLimitsInput): Admission {
    this.requests = this.requests.filter((at) => at > now - limits.periodMs);
    if (this.requests.length >= limits.perPeriod) return { ok: false, limit: "rate" };
    for (const [id, until] of this.leases) if (until <= now) this.leases.delete(id);
    if (this.leases.size >= limits.maxInFlight) return { ok: false, limit: "in_flight", held: this.leases.size };
    this.requests.push(now);
    this.leases.set(leaseId, now + limits.rfqWindowMs + LEASE_SLACK_MS);
    return { ok: true };
  }

  release(leaseId: string): void {
    this.leases.delete(leaseId);
  }

  /** Runs `auction` once admitted, holding a place until it ends; refused, the limit's 429 as a refusal. */
  async whileAdmitted(
    leaseId: string,
    now: number,
    limits: TakerLimitsInput,
    auction: () => Promise<QuoteOutcome>,
  ): Promise<QuoteOutcome> {
    const admission = this.admit(leaseId, now, limits);
    if (!admission.ok && admission.limit === "rate") {
      return refuse(429, "rate_limited", "Too many quote requests for this taker; slow down.", {
        retryAfter: limits.periodMs / 1000,
      });
    }
    if (!admission.ok) {
      return refuse(429, "too_many_rfqs", `This taker already has ${admission.held} quote requests in flight.`, {
        retryAfter: Math.ceil(limits.rfqWindowMs / 1000),
      });
    }
    try {
      return await auction();
    } finally {
      this.release(leaseId);
    }
  }
}
