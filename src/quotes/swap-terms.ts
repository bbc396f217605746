import { type ChainAdapter, type Corridor, findCorridor } from "../chains";
import type { RelayConfig } from "../config";
import { type Issue, invalidRequest, RelayError } from "../errors";

/** What every swap request states: a taker sells an amount of one token for another on one chain. */
export interface SwapTerms {
  sellToken: string;
  buyToken: string;
  /** Base units, as the request's schema checked it. */
  sellAmount: string;
  taker: string;
  recipient?: string | undefined;
}

/**
 * The one check of a swap's terms, for a quote and a limit order's draft alike (docs/api.md, "POST
 * /v1/quotes"; docs/limit-orders.md, "Prepare"): every address of the chain's shape (400
 * `invalid_request`), a pair the relay trades on the chain (400 `unsupported_pair`), a sale of at least the
 * sold token's minimum (400 `below_minimum`). Returns the corridor the swap runs on.
 */
export function checkSwapTerms(
  config: RelayConfig,
  chainId: number,
  adapter: ChainAdapter,
  terms: SwapTerms,
): Corridor {
  const { sellToken, buyToken, taker, recipient } = terms;
  const issues = addressIssues(adapter, { sellToken, buyToken, taker, recipient });
  if (issues.length) throw invalidRequest(issues, "The request failed validation.");
  const corridor = findCorridor(config, chainId, sellToken, buyToken);
  if (!corridor)
    throw new RelayError(400, "unsupported_pair", `The relay does not trade ${sellToken} for ${buyToken}.`);
  refuseBelowMinimum(adapter, sellToken, BigInt(terms.sellAmount));
  return corridor;
}

/** A sale below the sold token's configured minimum: 400 `below_minimum`, naming the minimum. */
export function refuseBelowMinimum(adapter: ChainAdapter, sellToken: string, sellAmount: bigint): void {
  const token = adapter.token(sellToken);
  if (token?.minimum && sellAmount < BigInt(token.minimum)) {
    throw new RelayError(400, "below_minimum", `The least ${token.symbol} sold is ${token.minimum}.`, {
      minimum: token.minimum,
    });
  }
}

/** The addresses of a request must be addresses of the chain asked for: an issue for each that is not. */
export function addressIssues(chain: ChainAdapter, fields: Record<string, string | undefined>): Issue[] {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && !chain.isAddress(v))
    .map(([path]) => ({ path, message: `must be ${chain.addressDescription}` }));
}

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
