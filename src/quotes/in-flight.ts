/**
 * A taker's quote requests in flight across every corridor (`maxOutstandingRfqs`, docs/api.md). Each
 * request holds a lease while its auction runs; a lease also lapses on its own, so a request whose
 * Worker died before releasing it frees its place after one auction's time.
 */
export class InFlightLeases {
  private readonly leases = new Map<string, number>();

  /** Takes a place for `leaseId` until `now + ttlMs`, unless `max` are already held: then the count held. */
  acquire(leaseId: string, now: number, ttlMs: number, max: number): { ok: true } | { ok: false; held: number } {
    for (const [id, until] of this.leases) if (until <= now) this.leases.delete(id);
    if (this.leases.size >= max) return { ok: false, held: this.leases.size };
    this.leases.set(leaseId, now + ttlMs);
    return { ok: true };
  }

  release(leaseId: string): void {
    this.leases.delete(leaseId);
  }
}
