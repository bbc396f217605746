import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import { InFlightLeases } from "../src/quotes/in-flight";

/**
 * One per taker address (`TAKER`): counts the taker's quote requests in flight across every corridor, so
 * `maxOutstandingRfqs` holds for the taker and not per corridor. Leases live in memory only: they last
 * one auction, and an evicted object has none in flight.
 */
export class TakerDO extends DurableObject<Env> {
  private readonly inFlight = new InFlightLeases();

  async acquire(leaseId: string, ttlMs: number, max: number) {
    return this.inFlight.acquire(leaseId, Date.now(), ttlMs, max);
  }

  async release(leaseId: string): Promise<void> {
    this.inFlight.release(leaseId);
  }
}
