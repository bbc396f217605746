import { type Clock, type QuoteOutcome, realClock } from "../auction";
import { type Refusal, refuse } from "../errors";
import { type ClientId, perPeriod, TokenBuckets } from "../limits";
import type { ApiKeyQuotas, Limits } from "../schemas";
import { AuctionSlots, KEEPER_ROUNDS, type SlotRefusal } from "./auction-slots";
import { firstUseOf, MemoryProofBook, type ProofBook, type TakerProofSeen } from "./proof-memory";

/** Who asks for a quote, as the Worker tells the corridor (docs/security.md, "Clients"). */
export interface QuoteAsk {
  client: ClientId;
  /** The API key's own quotas, when the client is a key that has some. */
  quotas?: ApiKeyQuotas;
  /** The taker proof, when one was checked: it is accepted once (src/quotes/proof-memory.ts). */
  proof?: TakerProofSeen;
}

export interface AdmissionSettings {
  limits: Limits;
  /** A taker's auctions in flight on this corridor (`maxOutstandingRfqs`). */
  maxOutstandingRfqs: number;
  rfqWindowMs: number;
  /** Where accepted taker proofs are remembered; in memory when not given. */
  proofs?: ProofBook;
  /** The clock a wait for an auction slot runs on; the real one when not given. */
  clock?: Pick<Clock, "after" | "now">;
}

/**
 * Whether a quote request may run an auction on this corridor (docs/api.md, "Limits"), counted in the
 * corridor object that runs it, so no other object stands on a quote's path: the corridor's auction slots
 * shared among the clients waiting for them (503 `corridor_busy` after one window's wait,
 * src/quotes/auction-slots.ts), the client's rate (429 `rate_limited`), the taker's rate (429
 * `rate_limited`) and the taker's auctions in flight (429 `too_many_rfqs`); a taker proof is accepted once
 * (400 `bad_taker_proof`, remembered in the object's storage, src/quotes/proof-memory.ts). A refused
 * request spends nothing. The counts are in memory: an evicted object forgets at most a few seconds of them.
 */
export class QuoteAdmission {
  private readonly clients = new TokenBuckets();
  private readonly takers = new TokenBuckets();
  private readonly takersInFlight = new Map<string, number>();
  private readonly proofs: ProofBook;
  private readonly prepares = new TokenBuckets();
  private readonly prices = new TokenBuckets();
  private readonly slots: AuctionSlots;
  private readonly clock: Pick<Clock, "after" | "now">;

  constructor(private readonly settings: AdmissionSettings) {
    this.clock = settings.clock ?? realClock;
    // Every auction ends within its window, so one window's wait sees each slot held at the ask come free.
    this.slots = new AuctionSlots(settings.limits.maxAuctionsInFlight, settings.rfqWindowMs, this.clock);
    this.proofs = settings.proofs ?? new MemoryProofBook();
  }

  /**
   * Runs `auction` once admitted, holding its places until it ends; refused, the limit's answer. A request
   * within its limits that finds no slot for its client waits for one (src/quotes/auction-slots.ts).
   */
  async run(taker: string, ask: QuoteAsk | null, now: number, auction: () => Promise<QuoteOutcome>) {
    const early = this.limitRefusal(taker, ask, now);
    if (early) return early;
    const holder = ask?.client ?? KEEPER_ROUNDS;
    const waiting = this.slots.claim(holder);
    const slot = waiting && (await waiting);
    if (slot) return this.busy(slot);
    // Within its limits when it asked; a wait may have let another request spend them since.
    const at = waiting ? this.clock.now() : now;
    const refusal = (waiting && this.limitRefusal(taker, ask, at)) || this.count(taker, ask, at);
    if (refusal) {
      this.slots.give(holder);
      return refusal;
    }
    this.takersInFlight.set(taker, (this.takersInFlight.get(taker) ?? 0) + 1);
    try {
      return await auction();
    } finally {
      this.slots.give(holder);
      const held = (this.takersInFlight.get(taker) ?? 1) - 1;
      if (held > 0) this.takersInFlight.set(taker, held);
      else this.takersInFlight.delete(taker);
    }
  }

  /**
   * Counts a limit-order prepare against its client (docs/api.md, "Limits"): the corridor that prices it
   * is where it already goes. The refusal when the client is over its rate.
   */
  prepare(ask: QuoteAsk, now: number): Refusal | null {
    return this.spend(this.prepares, ask, now, ["preparesPerSecond", "prepareBurst"], "limit-order prepares");
  }

  /**
   * Counts an indicative price request against its client (docs/api.md, "Limits"), in the corridor that
   * answers it from memory, so one client cannot keep the object that runs the auctions busy.
   */
  price(ask: QuoteAsk, now: number): Refusal | null {
    return this.spend(this.prices, ask, now, ["pricesPerSecond", "priceBurst"], "price requests");
  }

  /** Takes one of the client's tokens at its rate (a key's own quota first); the refusal when none is left. */
  private spend(
    buckets: TokenBuckets,
    ask: QuoteAsk,
    now: number,
    [perSecond, burst]: [keyof ApiKeyQuotas, keyof ApiKeyQuotas],
    what: string,
  ): Refusal | null {
    const { limits } = this.settings;
    const rate = {
      perSecond: ask.quotas?.[perSecond] ?? limits[perSecond],
      burst: ask.quotas?.[burst] ?? limits[burst],
    };
    const spent = buckets.take(ask.client, now, rate);
    if (spent.ok) return null;
    return refuse(429, "rate_limited", `Too many ${what} from this client; slow down.`, {
      retryAfter: spent.retryAfter,
    });
  }

  private busy(slot: SlotRefusal): Refusal {
    const message =
      slot === "full"
        ? "The corridor is running as many auctions as it takes; ask again shortly."
        : "The corridor keeps its last free auction for a client running none; ask again shortly.";
    return refuse(503, "corridor_busy", message, { retryAfter: Math.ceil(this.settings.rfqWindowMs / 1000) });
  }

  /** Why the client or the taker is over a limit now, counting nothing; null when within them all. */
  private limitRefusal(taker: string, ask: QuoteAsk | null, now: number): Refusal | null {
    // The keeper's limit rounds come with no client: only their share of the slots bounds them.
    if (!ask) return null;
    const { maxOutstandingRfqs, rfqWindowMs } = this.settings;
    const client = this.clients.peek(ask.client, now, this.clientRate(ask));
    if (!client.ok) {
      return refuse(429, "rate_limited", "Too many quote requests from this client; slow down.", {
        retryAfter: client.retryAfter,
      });
    }
    const forTaker = this.takers.peek(taker, now, this.takerRate());
    if (!forTaker.ok) {
      return refuse(429, "rate_limited", "Too many quote requests for this taker; slow down.", {
        retryAfter: forTaker.retryAfter,
      });
    }
    const held = this.takersInFlight.get(taker) ?? 0;
    if (held >= maxOutstandingRfqs) {
      return refuse(429, "too_many_rfqs", `This taker already has ${held} quote requests in flight.`, {
        retryAfter: Math.ceil(rfqWindowMs / 1000),
      });
    }
    return null;
  }

  /** Counts an admitted request: its taker proof accepted once, then the client's and the taker's rates. */
  private count(taker: string, ask: QuoteAsk | null, now: number): Refusal | null {
    if (!ask) return null;
    if (ask.proof !== undefined && !firstUseOf(this.proofs, ask.proof, now)) {
      return refuse(400, "bad_taker_proof", "This taker proof was used already; sign a new one.");
    }
    this.clients.take(ask.client, now, this.clientRate(ask));
    this.takers.take(taker, now, this.takerRate());
    return null;
  }

  private clientRate(ask: QuoteAsk) {
    const { limits } = this.settings;
    return {
      perSecond: ask.quotas?.quotesPerSecond ?? limits.quotesPerSecond,
      burst: ask.quotas?.quoteBurst ?? limits.quoteBurst,
    };
  }

  private takerRate() {
    return perPeriod(this.settings.limits.takerQuotesPer10s, 10);
  }
}
