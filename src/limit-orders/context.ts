import type { LimitOrderChains } from "../chains";
import { adapterFor } from "../chains";
import type { RelayConfig } from "../config";
import type { GasFeeAsk } from "../costs";
import { RelayError } from "../errors";
import type { DraftChain } from "./draft";

/** What the limit-order services work with: D1, the configuration in force, and each chain's limit orders. */
export interface LimitOrderContext {
  db: D1Database;
  config: RelayConfig;
  /** `limitOrdersFor`, or a fake chain in the integration tests. */
  chains: LimitOrderChains;
  /** Today's gas fee of a limit fill in a corridor, priced by the corridor (`CorridorDO.gasFeeNow`). */
  gasFeeNow(corridorKey: string, fill: GasFeeAsk): Promise<bigint>;
}

export type LimitSettings = NonNullable<RelayConfig["limitOrders"]>;

/**
 * The configuration's `limitOrders`; while it is null limit orders are off and every `/v1/limit-orders`
 * path answers 404 `limit_orders_disabled` (docs/configuration.md).
 */
export function limitSettings(config: RelayConfig): LimitSettings {
  if (config.limitOrders === null) {
    throw new RelayError(404, "limit_orders_disabled", "Limit orders are off on this relay.");
  }
  return config.limitOrders;
}

/** The configured chain `chainId` with its limit orders; `unknown` is thrown when none is configured. */
export function limitChainOf(ctx: LimitOrderContext, chainId: number, unknown: () => RelayError): DraftChain {
  const chain = ctx.config.chains.find((ch) => ch.chainId === chainId);
  if (!chain) throw unknown();
  const orders = ctx.chains(chain);
  if (!orders) {
    throw new RelayError(400, "limit_orders_unsupported", `Chain ${chainId} has no limit orders; they are EVM-only.`);
  }
  return { adapter: adapterFor(chain), orders };
}
