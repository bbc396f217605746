/**
 * The protocol fee's truth is on chain (docs/operations.md, "Health"; docs/configuration.md): a
 * configured `fee.bps` that differs from what the chain's contracts charge is stale. Quotes already
 * charge the chain's bps, so a difference is a warning, named by the health check and refused by
 * `scripts/check-config.ts`.
 */

/** A token whose on-chain bps differ from the configured ones. */
export interface FeeDifference {
  token: string;
  configured: number;
  onChain: number;
}

/** The tokens whose on-chain bps differ from `configured`, in the order read. */
export function feeDifferences(
  configured: number,
  onChain: readonly { symbol: string; bps: number }[],
): FeeDifference[] {
  return onChain.filter((t) => t.bps !== configured).map((t) => ({ token: t.symbol, configured, onChain: t.bps }));
}

export const describeFeeDifference = (d: FeeDifference): string =>
  `fee.bps ${d.configured} differs from the FeeController's ${d.onChain} for ${d.token}`;
