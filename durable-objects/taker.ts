import { DurableObject } from "cloudflare:workers";
import type { QuoteOutcome } from "../src/auction/quote-outcome";
import type { Env } from "../src/env";
import { unreachableRefusal } from "../src/http/unreachable-object";
import { TakerLimits, type TakerLimitsInput } from "../src/quotes/taker-limits";
import { corridorStub } from "../src/stubs";
import type { QuoteInput } from "../src/types";

/** Said when a corridor cannot take a quote request now (docs/api.md, "POST /v1/quotes"). */
const CORRIDOR_UNREACHABLE = {
  message: "The corridor is restarting; ask again shortly.",
  reason: "corridor_unreachable",
};

/**
 * One per taker address (`TAKER`): a quote request goes through its taker's object, which admits it
 * against the taker's limits, counted across every corridor (docs/api.md, "Taker limits"), asks the
 * corridor, and gives the place back as the answer passes: one call from the Worker, one to the
 * corridor. Counts live in memory only: a lease lasts one auction and the rate counts the last 10 s, so
 * an evicted object forgets little.
 */
export class TakerDO extends DurableObject<Env> {
  readonly limits = new TakerLimits();

  async quote(corridorKey: string, input: QuoteInput, limits: TakerLimitsInput): Promise<QuoteOutcome> {
    return this.limits.whileAdmitted(crypto.randomUUID(), Date.now(), limits, async () => {
      try {
        return await corridorStub(this.env, corridorKey).requestQuote(input);
      } catch (e) {
        const refusal = unreachableRefusal(e, CORRIDOR_UNREACHABLE);
        if (refusal) return refusal;
        throw e;
      }
    });
  }
}
