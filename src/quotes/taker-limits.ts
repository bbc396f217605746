/**
 * One taker's limits on quote requests (docs/api.md, "Taker limits"), counted by the taker's object
 * across every corridor: at most `perPeriod` requests in any `periodMs` (429 `rate_limited`), and at most
 * `maxInFlight` auctions in flight (`maxOutstandingRfqs`, 429 `too_many_rfqs`). Each admitted request
 * holds a lease while its auction runs; a lease also lapses on its own, so a request whose Worker died
 * before releasing it frees its place after one auction's time.
 */
export interface TakerLimitsInput {
  /** How long a lease lasts unless released. */
  ttlMs: number;
  maxInFlight: number;
  perPeriod: number;
  periodMs: number;
}

export type Admission = { ok: true } | { ok: false; limit: "rate" } | { ok: false; limit: "in_flight"; held: number };

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
    this.leases.set(leaseId, now + limits.ttlMs);
    return { ok: true };
  }

  release(leaseId: string): void {
    this.leases.delete(leaseId);
  }
}
