import { auctionLogFields, type Clock, type QuoteAnswer, type QuoteOutcome, quoteAnswer } from "../auction";
import type { CorridorCosts, GasFeeAsk, GasFeeSource } from "../costs";
import type { Refusal } from "../errors";
import type { CorridorPrices, PriceAsk } from "../levels";
import { log, withRequestId } from "../log";
import type { IndicativeLadder, IndicativePrice } from "../schemas";
import type { QuoteInput } from "../types";
import type { QuoteAdmission, QuoteAsk } from "./admission";

/** A fill's gas fee as `gasFeeNow` answers it. */
export interface GasFeeNow {
  token: string;
  amount: string;
  source: GasFeeSource;
}

/** The corridor object's parts a desk answers with. */
export interface DeskParts {
  corridorKey: string;
  admission: QuoteAdmission;
  /** Why new quotes are refused now (docs/operations.md, "Pausing"), or null. */
  controls: { refusal(): Refusal | null };
  house: { requestQuote(input: QuoteInput): Promise<QuoteOutcome> };
  ladders: Pick<CorridorPrices, "answer">;
  costs: Pick<CorridorCosts, "keepFresh" | "charge">;
  clock: Clock;
}

/**
 * A corridor object's answers to takers: quotes, limit orders' rounds, indicative prices and gas fees,
 * each counted against its client's limits here, on its one hop (docs/security.md, "Limits").
 */
export class CorridorDesk {
  constructor(private readonly parts: DeskParts) {}

  /** A taker's quote request, which the Worker validated: the body the Worker sends on as it is, and its log fields. */
  quote(input: QuoteInput, ask: QuoteAsk): Promise<QuoteAnswer> {
    return withRequestId(input.requestId, async () => {
      const outcome = await this.auction(input, ask);
      return quoteAnswer(outcome, auctionLogFields(this.parts.corridorKey, outcome));
    });
  }

  /** A limit order's round for the keeper's limit job (docs/limit-orders.md): the outcome as data, logged at debug. */
  round(input: QuoteInput): Promise<QuoteOutcome> {
    return withRequestId(input.requestId, async () => {
      const outcome = await this.auction(input, null);
      log.debug("auction", auctionLogFields(this.parts.corridorKey, outcome));
      return outcome;
    });
  }

  /** Refused while paused; else the auction, once the client and the taker are within their limits. */
  private async auction(input: QuoteInput, ask: QuoteAsk | null): Promise<QuoteOutcome> {
    const { controls, admission, house, clock } = this.parts;
    return controls.refusal() ?? (await admission.run(input.taker, ask, clock.now(), () => house.requestQuote(input)));
  }

  /** A price from the nodes' ladders in memory (docs/api.md, "Indicative prices"); 429 over the client's rate. */
  async price(ask: PriceAsk, client: QuoteAsk): Promise<IndicativePrice | IndicativeLadder | Refusal> {
    const now = this.parts.clock.now();
    return this.parts.admission.price(client, now) ?? this.parts.ladders.answer(ask, now);
  }

  /**
   * Today's gas fee of a fill here (a limit draft's `gasFeeNow`, docs/limit-orders.md, "Amounts"): priced as
   * a quote's would be now, after the reads that are due; a prepare counts against its client's limit.
   */
  async gasFeeNow(fill: GasFeeAsk, ask: QuoteAsk | null): Promise<GasFeeNow | Refusal> {
    const { admission, costs, clock } = this.parts;
    const now = clock.now();
    const refused = ask && admission.prepare(ask, now);
    if (refused) return refused;
    await costs.keepFresh(now);
    const gas = await costs.charge(fill, now);
    return { token: gas.token, amount: gas.amount.toString(), source: gas.source };
  }
}
