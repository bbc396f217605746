import { type Refusal, refuse } from "../errors";
import type { ApiKeyQuotas, Limits } from "../schemas";
import { perPeriod } from "./buckets";
import type { ClientId } from "./client";
import { type ClientAsk, LayeredBuckets, type Layers } from "./layered-buckets";

/** The statuses of a submission refused for what it sent (a wrong signature, quote or key). */
const REFUSED_FOR_WHAT_IT_SENT: ReadonlySet<number> = new Set([400, 404, 409]);

const refusedForWhatItSent = (outcome: { kind: string }): boolean =>
  outcome.kind === "refused" && REFUSED_FOR_WHAT_IT_SENT.has((outcome as Refusal).status);

const submissionRates = (limits: Limits, quotas: ApiKeyQuotas = {}): Layers => ({
  client: perPeriod(quotas.failedSubmissionsPer10s ?? limits.failedSubmissionsPer10s, 10),
  network: perPeriod(limits.networkFailedSubmissionsPer10s, 10),
  relay: perPeriod(limits.relayFailedSubmissionsPer10s, 10),
});

const placementRates = (limits: Limits, quotas: ApiKeyQuotas = {}): Layers => ({
  client: perPeriod(quotas.limitOrdersPerMinute ?? limits.limitOrdersPerMinute, 60),
  network: perPeriod(limits.networkLimitOrdersPerMinute, 60),
  relay: perPeriod(limits.relayLimitOrdersPerMinute, 60),
});

const WHOSE = { client: "this client", network: "this network (its IPv6 /48)", relay: "every client together" };

/**
 * The per-client counts that must hold whichever isolate a request reaches (docs/security.md, "Counts a
 * bypass defeats"), kept in the keeper leader, the one object every submission and every limit order's
 * placement already goes to. In memory: an object that restarts forgets at most a few seconds of them.
 */
export class SharedCounts {
  private readonly refusals = new LayeredBuckets();
  private readonly placements = new LayeredBuckets();
  private readonly inFlight = new Map<ClientId, number>();

  constructor(
    private readonly limits: () => Limits,
    private readonly now: () => number,
  ) {}

  /**
   * Runs a submission of `who`: only one refused for what it sent (400, 404, 409) is counted, after its
   * answer, so any number of valid ones may be in flight, up to a generous cap per client and per /48,
   * which bounds a burst sent at once; its refusals are counted in full and leave its client in debt. Past its client's or its /48's refusals
   * it is answered 429 before anything is read; past the relay's, only a client with no refusal of its own
   * still counted passes. Without `who` (the limit job's own submissions) nothing is counted.
   */
  async submission<T extends { kind: string }>(
    who: ClientAsk | undefined,
    run: () => Promise<T>,
  ): Promise<T | Refusal> {
    if (!who) return run();
    const limits = this.limits();
    const rates = submissionRates(limits, who.quotas);
    const cap = who.quotas?.submissionsInFlightPerClient ?? limits.submissionsInFlightPerClient;
    const holders = [who.client, ...(who.network ? [who.network] : [])];
    if (holders.some((holder) => (this.inFlight.get(holder) ?? 0) >= cap)) {
      return refuse(
        429,
        "rate_limited",
        `${cap} submissions of this client (or its IPv6 /48) are in flight already; wait for one.`,
        {
          retryAfter: 1,
        },
      );
    }
    const now = this.now();
    const short = this.refusals.short(who, now, rates);
    if (short && (short.layer !== "relay" || !this.refusals.clean(who, now, rates))) {
      return refuse(429, "rate_limited", `Too many refused submissions from ${WHOSE[short.layer]}; wait.`, {
        retryAfter: short.retryAfter,
      });
    }
    for (const holder of holders) this.inFlight.set(holder, (this.inFlight.get(holder) ?? 0) + 1);
    try {
      const outcome = await run();
      if (refusedForWhatItSent(outcome)) this.refusals.charge(who, this.now(), rates);
      return outcome;
    } finally {
      for (const holder of holders) {
        const left = (this.inFlight.get(holder) ?? 1) - 1;
        if (left > 0) this.inFlight.set(holder, left);
        else this.inFlight.delete(holder);
      }
    }
  }

  /** Counts a limit order's placement against `who`, its /48 and the relay; the refusal when one is spent. */
  placement(who: ClientAsk): Refusal | null {
    const rates = placementRates(this.limits(), who.quotas);
    const now = this.now();
    const short = this.placements.short(who, now, rates);
    if (short) {
      return refuse(429, "rate_limited", `Too many limit orders placed by ${WHOSE[short.layer]}; wait.`, {
        retryAfter: short.retryAfter,
      });
    }
    this.placements.take(who, now, rates);
    return null;
  }
}
