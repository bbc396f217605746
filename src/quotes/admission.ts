import type { QuoteOutcome } from "../auction";
import { type Refusal, refuse } from "../errors";
import { type ClientId, perPeriod, TokenBuckets } from "../limits";
import type { ApiKeyQuotas, Limits } from "../schemas";
import { AuctionSlots, KEEPER_ROUNDS } from "./auction-slots";
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
}

/**
 * Whether a quote request may run an auction on this corridor (docs/api.md, "Limits"), counted in the
 * corridor object that runs it, so no other object stands on a quote's path: the corridor's auction slots
 * and the client's share of them (503 `corridor_busy`, src/quotes/auction-slots.ts), the client's rate (429 `rate_limited`), the taker's rate (429
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

  constructor(private readonly settings: AdmissionSettings) {
    this.slots = new AuctionSlots(settings.limits.maxAuctionsInFlight);
    this.proofs = settings.proofs ?? new MemoryProofBook();
  }

  /** Runs `auction` once admitted, holding its places until it ends; refused, the limit's answer. */
  async run(taker: string, ask: QuoteAsk | null, now: number, auction: () => Promise<QuoteOutcome>) {
    const refusal = this.refusal(taker, ask, now);
    if (refusal) return refusal;
    const holder = ask?.client ?? KEEPER_ROUNDS;
    this.slots.take(holder);
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

  /** The answer to a request that may not run now, or null after counting it. */
  private refusal(taker: string, ask: QuoteAsk | null, now: number): QuoteOutcome | null {
    const { limits, maxOutstandingRfqs, rfqWindowMs } = this.settings;
    const windowSeconds = Math.ceil(rfqWindowMs / 1000);
    const slots = this.slots.refusal(ask?.client ?? KEEPER_ROUNDS);
    if (slots) {
      const message =
        slots === "full"
          ? "The corridor is running as many auctions as it takes; ask again shortly."
          : "This client holds its share of the corridor's auctions; ask again shortly.";
      return refuse(503, "corridor_busy", message, { retryAfter: windowSeconds });
    }
    // The keeper's limit rounds come with no client: only their share of the slots bounds them.
    if (!ask) return null;
    const clientRate = {
      perSecond: ask.quotas?.quotesPerSecond ?? limits.quotesPerSecond,
      burst: ask.quotas?.quoteBurst ?? limits.quoteBurst,
    };
    const takerRate = perPeriod(limits.takerQuotesPer10s, 10);
    const client = this.clients.peek(ask.client, now, clientRate);
    if (!client.ok) {
      return refuse(429, "rate_limited", "Too many quote requests from this client; slow down.", {
        retryAfter: client.retryAfter,
      });
    }
    const forTaker = this.takers.peek(taker, now, takerRate);
    if (!forTaker.ok) {
      return refuse(429, "rate_limited", "Too many quote requests for this taker; slow down.", {
        retryAfter: forTaker.retryAfter,
      });
    }
    const held = this.takersInFlight.get(taker) ?? 0;
    if (held >= maxOutstandingRfqs) {
      return refuse(429, "too_many_rfqs", `This taker already has ${held} quote requests in flight.`, {
        retryAfter: windowSeconds,
      });
    }
    if (ask.proof !== undefined && !firstUseOf(this.proofs, ask.proof, now)) {
      return refuse(400, "bad_taker_proof", "This taker proof was used already; sign a new one.");
    }
    this.clients.take(ask.client, now, clientRate);
    this.takers.take(taker, now, takerRate);
    return null;
  }
}
