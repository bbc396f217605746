import { resolverKey } from "../ids";
import type { OutputBounds } from "./band-guard";
import type { LadderBid } from "./corridor-port";

/** What an asked node's own fresh ladder paid for the rfq's amount as it went out. */
export interface AskedLadder {
  resolver: string;
  ladderOutput: bigint;
}

/**
 * An auction's honesty samples (docs/reliability.md, "Honest levels"): one for each asked node whose ladder
 * covered the amount. Its firm bid against that value; or, when it declined, sent no valid bid in the
 * window, or bid outside the band guard (a bid that cannot win honours nothing), a bid of nothing, the
 * worst case: a ladder is a price the node stands by, not one it may walk away from. A limit round asks
 * at least the order's limit (`limitAmount`): a node whose ladder paid less had nothing to honour there,
 * so only its bid counts.
 */
export function ladderSamples(
  ladders: readonly AskedLadder[],
  bids: readonly { resolver: string; outputAmount: bigint }[],
  bounds: OutputBounds | null,
  limitAmount: bigint | null = null,
): LadderBid[] {
  const bidOf = new Map(bids.map((b) => [resolverKey(b.resolver), b.outputAmount]));
  return ladders.flatMap(({ resolver, ladderOutput }) => {
    const bid = bidOf.get(resolverKey(resolver));
    const honoured = bid !== undefined && (!bounds || (bid >= bounds.min && bid <= bounds.max));
    if (honoured) return [{ resolver, ladderOutput, outputAmount: bid }];
    if (limitAmount !== null && ladderOutput < limitAmount) return [];
    return [{ resolver, ladderOutput, outputAmount: 0n }];
  });
}
