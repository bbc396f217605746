import { blameOf } from "../states";
import type { Demotion } from "./strike-policy";
import { type StandingEvent, strike } from "./strikes";

/**
 * Whether a failed fill was its winner's own fault (docs/reliability.md, "Blame"): its reason blames the
 * resolver, which only the chain's evidence of the resolver's own doing makes it do. Such a failure, and no
 * other, strikes the winner and counts against its fill rate (`fill = settled / (settled + own failures)`);
 * the taker's and the relay's never do, however often they happen.
 */
export const isResolversOwn = (reason: string): boolean => blameOf(reason) === "resolver";

/**
 * A failed fill's consequence for its winner, decided here once for the keeper's requotes and its
 * indexer's failures alike: a strike when the reason is the resolver's own, nothing otherwise (nor when the
 * fill had no winner to strike). `why` is the resolver's history line; `demoted` hears of a demotion.
 */
export async function strikeIfOwn(
  db: D1Database,
  failed: Omit<StandingEvent, "resolver"> & { resolver: string | null; reason: string; why: string },
  demoted: (resolver: string, demotion: Demotion) => unknown,
): Promise<Demotion | null> {
  const { resolver, reason, ...event } = failed;
  if (!resolver || !isResolversOwn(reason)) return null;
  return strike(db, { ...event, resolver }, (demotion) => demoted(resolver, demotion));
}
