import type { RelayConfig } from "../config";
import { invalidRequest } from "../errors";

/**
 * The taker's tolerance a quote request asks (docs/settlement.md, "When the winner fades"): 0 when absent,
 * at most the configuration's `limits.maxSlippageBps`, else 400 `invalid_request` naming `slippageBps`.
 * Its schema refuses a negative or fractional value already.
 */
export function slippageOf(config: RelayConfig, slippageBps: number | undefined): number {
  const max = config.limits.maxSlippageBps;
  if (slippageBps !== undefined && slippageBps > max) {
    throw invalidRequest(
      [{ path: "slippageBps", message: `must be at most ${max}` }],
      "The request failed validation.",
    );
  }
  return slippageBps ?? 0;
}
