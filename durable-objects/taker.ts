import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import { TakerLimits, type TakerLimitsInput } from "../src/quotes/taker-limits";

/**
 * One per taker address (`TAKER`): admits the taker's quote requests against its limits, counted across
 * every corridor (docs/api.md, "Taker limits"), in one call per request. Counts live in memory only: a
 * lease lasts one auction and the rate counts the last 10 s, so an evicted object forgets little.
 */
export class TakerDO extends DurableObject<Env> {
  private readonly limits = new TakerLimits();

  async admit(leaseId: string, limits: TakerLimitsInput) {
    return this.limits.admit(leaseId, Date.now(), limits);
  }

  async release(leaseId: string): Promise<void> {
    this.limits.release(leaseId);
  }
}
