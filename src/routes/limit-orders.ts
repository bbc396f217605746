import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { RelayError } from "../errors";

/**
 * Limit orders are off while the configuration's `limitOrders` is null, and they are not served yet
 * (docs/configuration.md): every `/v1/limit-orders` path then answers 404 `limit_orders_disabled`.
 */
export const limitOrdersDisabled = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("config").limitOrders === null) {
    throw new RelayError(404, "limit_orders_disabled", "Limit orders are off on this relay.");
  }
  await next();
});
