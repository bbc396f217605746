import { blameOf } from "../blame";

/**
 * Whether a failed fill was its winner's own fault (docs/reliability.md, "Blame"): its reason blames the
 * resolver, which only the chain's evidence of the resolver's own doing makes it do. Such a failure, and no
 * other, strikes the winner and counts against its fill rate (`fill = settled / (settled + own failures)`);
 * the taker's and the relay's never do, however often they happen.
 */
export const isResolversOwn = (reason: string): boolean => blameOf(reason) === "resolver";
