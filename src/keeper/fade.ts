import type { FillRequest, PreparedFill, SettlementScheme } from "../chains";
import { findCorridor } from "../chains";
import { type QuoteRow, readSignedOffers, type SignedOffer, writeFade } from "../db";
import { strikeIfOwn } from "../resolvers";
import { iso } from "./iso";
import type { Trial } from "./trial";

/**
 * A winner that fades (docs/settlement.md, "When the winner fades"): its leg failed the keeper's pre-flight
 * or simulation for a `resolver:` reason. Where the taker signed what it gets and not who pays it (EVM), the
 * keeper fills the same signed quote with the next valid offer by rank that pays at least `minReceived`,
 * before the quote expires, each simulated from the trial's wallet, without asking the taker again. The
 * winner is struck as for a requote; the record shows the faded offer, the filling one and a `fallback`.
 */

/** An offer that may fill a faded winner's quote, with what it leaves the recipient. */
export type NextOffer = SignedOffer & { signature: string; received: string };

/**
 * The offers a faded winner's quote may fill with, best first: whole bids steering let win other than the
 * winner's (`lost`; `outside_band`, `demoted` and `faded` never fill, and a part fills no swap alone), by
 * another resolver, whose signature was kept and that leave the recipient at least `minReceived`. `faded`:
 * the winner, or the leg's resolver that faded in a fill of several makers (docs/legs.md).
 */
export function nextOffers(offers: readonly SignedOffer[], faded: string, minReceived: string): NextOffer[] {
  const least = BigInt(minReceived);
  return offers
    .filter((o): o is NextOffer => o.status === "lost" && o.signature !== null && o.received !== null)
    .filter((o) => o.sellAmount === null)
    .filter((o) => o.resolver.toLowerCase() !== faded.toLowerCase() && BigInt(o.received) >= least)
    .sort((a, b) => a.rank - b.rank);
}

/** The protocol fee of an offer: its output less what it leaves the recipient and a gas fee in the buy token. */
export function feeOf(quote: Pick<QuoteRow, "buyToken" | "gasFee">, offer: NextOffer): bigint {
  const gasFromOutput =
    quote.gasFee.token.toLowerCase() === quote.buyToken.toLowerCase() ? BigInt(quote.gasFee.amount) : 0n;
  return BigInt(offer.outputAmount) - BigInt(offer.received) - gasFromOutput;
}

/** A filling offer found: its request and simulated fill replace the trial's; `fadedRank` is the winner's. */
export interface Refill {
  request: FillRequest;
  fill: PreparedFill;
  offer: NextOffer;
  fadedRank: number;
  /** The resolver that faded: the winner, or the leg's the chain named. */
  faded: string;
}

/**
 * The first next offer whose fill simulates from the trial's wallet, or null: none meets the minimum, none
 * passes, the quote expired meanwhile, or the chain's scheme cannot put another bid in (then the caller
 * requotes as before). A next offer that fails is passed over without a strike: at most one per quote.
 */
export async function refill(
  trial: Trial,
  scheme: Pick<SettlementScheme, "withBid">,
  faded: string | undefined,
): Promise<Refill | null> {
  const { port, quote, request, wallet } = trial;
  if (!quote.resolver || quote.fillKind === "limit") return null;
  const fader = faded ?? quote.resolver.address;
  const stored = await readSignedOffers(port.records(quote.quoteId), quote.quoteId);
  const won = stored.filter((o) => o.status === "won");
  const fadedRank = (won.find((o) => o.resolver.toLowerCase() === fader.toLowerCase()) ?? won[0])?.rank ?? 1;
  for (const offer of nextOffers(stored, fader, quote.minReceived)) {
    if (port.now() >= Date.parse(quote.expiresAt)) return null;
    const signing = scheme.withBid(request.signing, offer);
    if (signing === null) return null;
    const next = { ...request, signing };
    // The taker's signature is the one already checked: a next bid changes nothing it signed (docs/settlement.md).
    const checks = wallet.settler.preflight(next, Math.floor(port.now() / 1000));
    checks.taker.catch(() => {});
    const preflight = await checks.fill;
    if (preflight.kind === "prepared") return { request: next, fill: preflight.fill, offer, fadedRank, faded: fader };
  }
  return null;
}

/**
 * Records a fade before the next offer's fill is signed: the winner struck (its own reason), its offer
 * `faded`, the next one `won` and the quote's winner, amounts and signing its, a `fallback` event on the
 * timeline; the faded winner hears its fill `failed`, the stream the new event.
 */
export async function recordFade(trial: Trial, faded: Refill, reason: string): Promise<void> {
  const { port, quote, terms } = trial;
  if (!quote.resolver) return;
  const winner = { address: faded.faded };
  const at = iso(port.now());
  const { offer } = faded;
  await writeFade(port.records(quote.quoteId), {
    quoteId: quote.quoteId,
    fadedRank: faded.fadedRank,
    next: offer,
    fee: feeOf(quote, offer).toString(),
    signing: faded.request.signing,
    at,
    detail: { reason, faded: winner.address, resolver: offer.resolver, received: offer.received },
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
