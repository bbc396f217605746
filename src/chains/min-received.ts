/** Basis points in a whole. */
const BPS = 10_000n;

/**
 * The least the recipient of a quote may get: `received` less the taker's tolerance of `slippageBps`, rounded
 * down (docs/settlement.md, "When the winner fades"). The taker signs it; a bid that pays less cannot fill.
 */
export function minReceivedOf(received: bigint, slippageBps: number): bigint {
  return (received * (BPS - BigInt(slippageBps))) / BPS;
}
