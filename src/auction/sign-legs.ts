import type { QuoteSigning, WinnerLeg } from "../chains";
import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { QuoteAmounts } from "../types";
import type { DecideContext } from "./decide";
import type { JsonObject } from "./quote-outcome";
import type { RankedOffer } from "./rank";

/** How long a winner's transaction waits for a corridor's first chain-state read (docs/architecture.md, "Quote signing"). */
export const COLD_READ_WAIT_MS = 1_000;

/** A leg of a fill to sign: its offer, and the part it sells. */
export interface LegToSign<O extends RankedOffer> {
  offer: O;
  sellAmount: bigint;
}

export type LegsSigned =
  /** Every leg's resolver signed: what the taker signs, and the quote's resolver's own signature. */
  | { kind: "signed"; signing: JsonObject; signature: string }
  /** These resolvers did not sign in time, or signed something else (each struck), or are gone. */
  | { kind: "unsigned"; resolvers: string[] }
  /** No fresh chain state to build the transaction with. */
  | { kind: "unbuildable" };

/**
 * The settlement transaction of a fill signed by every leg's resolver, where resolvers sign after the
 * auction (docs/legs.md, "In the auction"): one transaction of every leg, sent in `sign` to each leg's
 * resolver at once, their answers awaited together within the one signing window and each verified in its
 * own place. A resolver that does not sign in time, or signs something else, is struck as a winner that
 * does not sign is; the caller composes the fill again without it.
 */
export async function signLegs<O extends RankedOffer>(
  ctx: DecideContext<O>,
  signing: Extract<QuoteSigning, { kind: "winner" }>,
  legs: readonly LegToSign<O>[],
  lead: O,
  amounts: QuoteAmounts,
): Promise<LegsSigned> {
  const nodes = legs.map((l) => ctx.nodes.get(resolverKey(l.offer.resolver)));
  const gone = legs.filter((_, i) => !nodes[i]).map((l) => l.offer.resolver);
  if (gone.length > 0) return { kind: "unsigned", resolvers: gone };
  const signers = nodes as NodeSession[];
  const leadNode = signers[legs.findIndex((l) => l.offer === lead)] ?? (signers[0] as NodeSession);
  const winnerLegs: WinnerLeg[] | undefined =
    legs.length > 1
      ? legs.map((l, i) => ({
          resolver: l.offer.resolver,
          keys: signers[i] as NodeSession,
          sellAmount: l.sellAmount,
          outputAmount: l.offer.bid.outputAmount,
        }))
      : undefined;
  const winner = { resolver: lead.resolver, amounts, ...(winnerLegs ? { legs: winnerLegs } : {}) };
  const build = () => signing.request(ctx.terms, winner, leadNode, ctx.clock.now());
  // A corridor that just woke holds no chain state yet: its first read is under way, worth a short wait.
  const request = build() ?? (await Promise.race([ctx.fresh, ctx.clock.sleep(COLD_READ_WAIT_MS)]).then(build));
  if (!request) return { kind: "unbuildable" };
  const signatures = await Promise.all(signers.map((node) => ctx.askToSign(node.address, request.transaction)));
  const unsigned: string[] = [];
  signers.forEach((node, i) => {
    const signature = signatures[i] ?? null;
    if (signature !== null && signing.verify(request, node, signature)) return;
    unsigned.push(legs[i]?.offer.resolver as string);
    ctx.strike(node.address, signature === null ? "did not sign within 500 ms" : "signed something else");
  });
  if (unsigned.length > 0) return { kind: "unsigned", resolvers: unsigned };
  const leadAt = signers.indexOf(leadNode);
  const signature = signatures[leadAt] as string;
  const others = signers
    .map((keys, i) => ({ keys, signature: signatures[i] as string }))
    .filter((_, i) => i !== leadAt);
  return {
    kind: "signed",
    signing: signing.takerSigning(request, leadNode, signature, others) as JsonObject,
    signature,
  };
}
