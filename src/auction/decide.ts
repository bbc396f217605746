import type { QuoteSigning, RfqTerms } from "../chains/adapter";
import type { NodeSession } from "../nodes/nodes";
import type { QuoteAmounts } from "./amounts";
import type { JsonObject } from "./house";
import { crown, type RankedOffer, winnable } from "./rank";

/** How long a winner's transaction waits for a corridor's first chain-state read (docs/architecture.md, "Quote signing"). */
const COLD_READ_WAIT_MS = 1_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The auction's winner once decided, and what the taker signs for it; where the winner signs after the
 * auction, the winner is the best offer whose resolver signed, and its signature is kept.
 */
export interface Decision {
  offers: RankedOffer[];
  winner: { offer: RankedOffer; amounts: QuoteAmounts; signing: JsonObject; winnerSignature: string | null } | null;
  /** No winner because the chain state to build the winner's transaction with is stale (its RPC is down). */
  unbuildable?: true;
  /** A limit round whose best bid gives the recipient less than the order's `minOut`: what it gives. */
  belowLimit?: bigint;
}

/** What deciding needs of the auction that ranked the offers. */
export interface DecideContext {
  signing: QuoteSigning;
  terms: RfqTerms;
  /** The auction's asked nodes, by lower-case address. */
  nodes: ReadonlyMap<string, NodeSession>;
  /** Settles when the chain-state read started with the auction does. */
  fresh: Promise<void>;
  amountsOf(outputAmount: bigint): QuoteAmounts;
  /** Sends `sign` to the node; its signature, or null when none came in time (src/auction/winner-signatures.ts). */
  askToSign(address: string, transaction: string): Promise<string | null>;
  /** A strike for a winner that did not sign (docs/reliability.md). */
  strike(address: string, why: string): void;
}

/**
 * The winner: the best offer steering lets win, and in a limit round only if the recipient gets the
 * order's `minOut`. On a chain where the winner signs after the auction, the best such offer whose
 * resolver answered `sign` in time with a signature that verifies; one that does not gets a strike.
 * The adapters build what the taker signs from JSON-ready values (src/chains/json.ts).
 */
export async function decideWinner(ctx: DecideContext, offers: RankedOffer[]): Promise<Decision> {
  const { signing, terms } = ctx;
  if (signing.kind === "taker") {
    const offer = offers.find((o) => o.won);
    if (!offer) return { offers, winner: null };
    const amounts = ctx.amountsOf(offer.bid.outputAmount);
    if (terms.limit && amounts.received < BigInt(terms.limit.minOut)) {
      return { offers: crown(offers, null), winner: null, belowLimit: amounts.received };
    }
    const taker = signing.takerSigning(terms, { resolver: offer.resolver, amounts }) as JsonObject;
    return { offers, winner: { offer, amounts, signing: taker, winnerSignature: null } };
  }
  for (const offer of winnable(offers)) {
    const node = ctx.nodes.get(offer.resolver.toLowerCase());
    if (!node) continue;
    const amounts = ctx.amountsOf(offer.bid.outputAmount);
    const build = () => signing.request(terms, { resolver: offer.resolver, amounts }, node, Date.now());
    // A corridor that just woke holds no chain state yet: its first read is under way, worth a short wait.
    const request = build() ?? (await Promise.race([ctx.fresh, sleep(COLD_READ_WAIT_MS)]).then(build));
    // No fresh chain state to build the transaction with (its RPC is not answering): no quote now.
    if (!request) return { offers: crown(offers, null), winner: null, unbuildable: true };
    const signature = await ctx.askToSign(node.address, request.transaction);
    if (signature !== null && signing.verify(request, node, signature)) {
      const crowned = crown(offers, offer.resolver);
      const winner = crowned.find((o) => o.won) ?? offer;
      const taker = signing.takerSigning(request, node, signature) as JsonObject;
      return { offers: crowned, winner: { offer: winner, amounts, signing: taker, winnerSignature: signature } };
    }
    ctx.strike(node.address, signature === null ? "did not sign within 500 ms" : "signed something else");
  }
  return { offers: crown(offers, null), winner: null };
}
