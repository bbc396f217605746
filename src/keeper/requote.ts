import { findCorridor } from "../chains";
import { type ExecutionTerms, type QuoteRow, writeRequote } from "../db";
import { isResolversOwn, strikeIfOwn } from "../resolvers";
import { blameOf } from "../states";
import { type FillNotice, relayFault } from "./fill-notice";
import { iso } from "./iso";
import { logIfRelayFault } from "./keeper-log";
import type { KeeperPort } from "./port";
import type { SubmitOutcome, SubmitTimings } from "./rpc";
import { timed } from "./timings";

/**
 * A simulation that reverted: recorded as a `requote` execution, blamed by its reason's prefix
 * (docs/reliability.md, "Blame"). A reason the taker can fix leaves the quote open; any other fails it,
 * and the winning resolver hears so; only the resolver's own fault strikes it. `leg`: in a fill of several
 * makers, the resolver whose leg the chain named, who hears and is struck instead (docs/legs.md).
 */
export async function requote(
  port: KeeperPort,
  quote: QuoteRow,
  terms: ExecutionTerms,
  reason: string,
  timings: SubmitTimings,
  leg?: string,
): Promise<SubmitOutcome> {
  const blame = blameOf(reason);
  const step = blame === "taker" ? "takerRequote" : "requote";
  const resolversOwn = isResolversOwn(reason);
  const at = iso(port.now());
  await timed(timings, "writeMs", () =>
    writeRequote(port.records(terms.quoteId), { ...terms, at }, step, { reason, resolversOwn, leg }),
  );
  const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
  // A requote the taker can fix leaves the quote open: the winner hears nothing.
  const winner = step === "requote" ? (leg ?? quote.resolver?.address ?? null) : null;
  const corridorKey = corridor?.key ?? null;
  const fill: FillNotice | null =
    corridorKey && winner
      ? { corridorKey, resolver: winner, status: "failed", txHash: null, ...relayFault(reason) }
      : null;
  port.quoteMoved(quote.quoteId, fill);
  logIfRelayFault({ quoteId: quote.quoteId, corridor: corridorKey, reason });
  const failed = {
    resolver: winner,
    reason,
    event: terms.executionId,
    quoteId: quote.quoteId,
    why: `requote ${reason}`,
    now: port.now(),
  };
  await strikeIfOwn(port.db, failed, (resolver, demotion) => port.demoted(corridorKey, resolver, demotion));
  return { kind: "requote", quoteId: quote.quoteId, executionId: terms.executionId, reason, timings };
}
