import type { FillRequest, PreparedFill, SettlementScheme } from "../chains";
import { findCorridor } from "../chains";
import { type QuoteRow, readSignedOffers, type SignedOffer, writeFade } from "../db";
import { resolverKey } from "../ids";
import { strikeIfOwn } from "../resolvers";
import { iso } from "./iso";
import { leadOf, type NextOffer, type ReplacementTerms, replacementFee, replacementOf } from "./replacement";
import type { Trial } from "./trial";

/**
 * A winner that fades (docs/settlement.md, "When the winner fades"): its leg failed the keeper's pre-flight
 * or simulation for a `resolver:` reason. Where the taker signed what it gets and not who pays it (EVM), the
 * keeper fills the same signed quote with the best fill of the quote's other offers, whole bids and parts,
 * that pays at least `minReceived` under the gas fee the taker signed (`replacementOf`), before the quote
 * expires, simulated from the trial's wallet, without asking the taker again. The faded resolver is struck
 * as for a requote, and only it; the record shows its offer `faded`, the filling ones `won` and a `fallback`.
 */

export type { NextOffer } from "./replacement";

/** The gas fee the taker signed, when it is taken from the output; 0 when it is charged in the sell token. */
const gasFromOutput = (quote: Pick<QuoteRow, "buyToken" | "gasFee">): bigint =>
  quote.gasFee.token.toLowerCase() === quote.buyToken.toLowerCase() ? BigInt(quote.gasFee.amount) : 0n;

/** What every replacement of `quote`'s faded fill must meet: the taker's witness, the faded fill's legs, the fee. */
export function replacementTerms(
  quote: Pick<QuoteRow, "sellAmount" | "minReceived" | "buyToken" | "gasFee" | "fee">,
  legs: number,
  chain: { maxLegs: number; feeBps: number },
): ReplacementTerms {
  const side = quote.fee.token.toLowerCase() === quote.buyToken.toLowerCase() ? "buy" : "sell";
  return {
    sellAmount: BigInt(quote.sellAmount),
    minReceived: BigInt(quote.minReceived),
    gasFromOutput: gasFromOutput(quote),
    maxLegs: Math.max(1, Math.min(legs, chain.maxLegs)),
    fee: { bps: chain.feeBps, side },
  };
}

/** A replacement found: its request and simulated fill replace the trial's; `fadedRank` is the faded offer's. */
export interface Refill {
  request: FillRequest;
  fill: PreparedFill;
  /** The filling offers, in rank order: one whole bid, or the legs of several makers. */
  legs: NextOffer[];
  /** The quote's resolver now: the largest leg's. */
  lead: NextOffer;
  received: bigint;
  fee: string;
  fadedRank: number;
  /** The resolver that faded: the winner, or the leg's the chain named. */
  faded: string;
}

/**
 * The best replacement whose fill simulates from the trial's wallet, or null: none meets the minimum, none
 * passes, the quote expired meanwhile, or the chain's scheme cannot put other bids in (then the caller
 * requotes as before). A replacement that fails is passed over without a strike (at most one per quote):
 * the leg the chain names is left out and the fill composed again, or, named none, all of its legs.
 */
export async function refill(
  trial: Trial,
  scheme: Pick<SettlementScheme, "withBid">,
  faded: string | undefined,
): Promise<Refill | null> {
  const { port, quote, request, wallet } = trial;
  if (!quote.resolver || quote.fillKind === "limit") return null;
  const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
  if (!corridor) return null;
  const fader = faded ?? quote.resolver.address;
  const stored = await readSignedOffers(port.records(quote.quoteId), quote.quoteId);
  const won = stored.filter((o) => o.status === "won");
  const fadedRank = (won.find((o) => sameResolver(o, fader)) ?? won[0])?.rank ?? 1;
  const terms = replacementTerms(quote, won.length, {
    maxLegs: corridor.chain.maxLegs,
    feeBps: corridor.chain.fee.bps,
  });
  const excluded = new Set([fader]);
  for (let tried = 0; tried < stored.length; tried++) {
    if (port.now() >= Date.parse(quote.expiresAt)) return null;
    const choice = replacementOf(stored, terms, excluded);
    if (!choice) return null;
    const lead = leadOf(choice.legs, terms.sellAmount);
    // The quote's resolver first: the signing names it, as the auction's does (src/auction/quote-row.ts).
    const signing = scheme.withBid(request.signing, [lead, ...choice.legs.filter((l) => l !== lead)]);
    if (signing === null) return null;
    const next = { ...request, signing };
    // The taker's signature is the one already checked: other bids change nothing it signed (docs/settlement.md).
    const checks = wallet.settler.preflight(next, Math.floor(port.now() / 1000));
    checks.taker.catch(() => {});
    const preflight = await checks.fill;
    if (preflight.kind === "prepared") {
      const fee = replacementFee(choice, terms, quote.fee.amount);
      return {
        request: next,
        fill: preflight.fill,
        legs: choice.legs,
        lead,
        received: choice.received,
        fee,
        fadedRank,
        faded: fader,
      };
    }
    const named = preflight.kind === "requote" ? preflight.resolver : undefined;
    for (const resolver of named ? [named] : choice.legs.map((l) => l.resolver)) excluded.add(resolver);
  }
  return null;
}

const sameResolver = (offer: SignedOffer, resolver: string) => resolverKey(offer.resolver) === resolverKey(resolver);

/**
 * Records a fade before the replacement's fill is signed: the faded resolver struck (its own reason), its offer
 * `faded`, the filling ones `won` (the quote's other legs among them stay so) and the rest `lost`, the quote's
 * resolver (the largest leg's), amounts and signing the replacement's, a `fallback` event on the timeline; the
 * faded resolver hears its fill `failed`, the stream the new event.
 */
export async function recordFade(trial: Trial, faded: Refill, reason: string): Promise<void> {
  const { port, quote, terms } = trial;
  if (!quote.resolver) return;
  const winner = { address: faded.faded };
  const at = iso(port.now());
  const { lead, legs } = faded;
  await writeFade(port.records(quote.quoteId), {
    quoteId: quote.quoteId,
    fadedRank: faded.fadedRank,
    next: legs,
    lead,
    received: faded.received.toString(),
    fee: faded.fee,
    signing: faded.request.signing,
    at,
    detail: {
      reason,
      faded: winner.address,
      resolver: lead.resolver,
      received: faded.received.toString(),
      ...(legs.length > 1 ? { legs: legs.map((l) => l.resolver) } : {}),
    },
  });
  const corridorKey = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken)?.key ?? null;
  const fill = corridorKey ? { corridorKey, resolver: winner.address, status: "failed" as const, txHash: null } : null;
  port.quoteMoved(quote.quoteId, fill);
  const failed = {
    resolver: winner.address,
    reason,
    event: terms.executionId,
    quoteId: quote.quoteId,
    why: `faded ${reason}`,
    now: port.now(),
  };
  await strikeIfOwn(port.db, failed, (resolver, demotion) => port.demoted(corridorKey, resolver, demotion));
}
