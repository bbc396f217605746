import { blamed } from "../../states";
import type { RevertOutcome } from "../settler";
import { isTransportError } from "./rpc";

/** A mined revert's outcome as the reason its execution records: every outcome names its party. */
export function minedReason(outcome: RevertOutcome): string {
  if (outcome.kind === "bad_signature") return blamed("taker", "bad_signature");
  return outcome.kind === "keeper_refused" ? blamed("relay", outcome.reason) : outcome.reason;
}

/**
 * Why a mined transaction reverted (docs/settlement.md, "Attribution after broadcast"): its call is replayed
 * from the keeper (`replay`, an `eth_call` at a block) on the state of the block before it, which is what
 * the simulation saw at best. When that replay passes, a transaction ahead of it in its own block changed
 * what it needed (a taker front-running its fill by spending its nonce or moving its tokens), so it is
 * replayed on its block's own state, which holds that change. Each revert is read by `outcomeOf` as a
 * simulation's is. Null when neither replay reverts, or the chain did not answer: nothing names a party.
 */
export async function minedRevertReason(
  replay: (blockNumber: bigint) => Promise<unknown>,
  outcomeOf: (e: unknown) => RevertOutcome,
  block: number,
): Promise<string | null> {
  const outcome = await minedRevert(replay, outcomeOf, block);
  return outcome ? minedReason(outcome) : null;
}

/** The outcome `minedRevertReason` reads its reason from, with what it says beside (a short resolver's shortfall). */
export async function minedRevert(
  replay: (blockNumber: bigint) => Promise<unknown>,
  outcomeOf: (e: unknown) => RevertOutcome,
  block: number,
): Promise<RevertOutcome | null> {
  for (const at of [Math.max(0, block - 1), block]) {
    try {
      await replay(BigInt(at));
    } catch (e) {
      return isTransportError(e) ? null : outcomeOf(e);
    }
  }
  return null;
}
