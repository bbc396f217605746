import type { ValidBid } from "../../src/auction/rank";

/**
 * A valid bid of an auction in which parts were bid (docs/legs.md), as intake ranks it: what it leaves
 * alone is its output less one leg's gas fee, 10. `sellAmount` makes it a part.
 */
export const legBid = (
  resolver: string,
  outputAmount: bigint,
  sellAmount?: bigint,
): ValidBid & { amounts: unknown } => ({
  resolver,
  name: resolver,
  outputAmount,
  received: outputAmount - 10n,
  latencyMs: 10,
  reliability: null,
  demoted: false,
  signature: `sig-${resolver}`,
  amounts: { outputAmount },
  ...(sellAmount === undefined ? {} : { sellAmount }),
});
