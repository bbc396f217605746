/**
 * The HTTP API (docs/api.md): one router per resource, mounted by src/app.ts.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { adminRoutes } from "./admin";
export { apiKeyRoutes } from "./api-keys";
export { archiveRoutes } from "./archive";
export { configRoutes } from "./config";
export { corridorRoutes } from "./corridors";
export { eventRoutes } from "./events";
export { executionRoutes } from "./executions";
export { healthRoutes } from "./health";
export { limitOrderRoutes, limitOrdersDisabled } from "./limit-orders";
export { priceRoutes } from "./prices";
export { quoteRoutes } from "./quotes";
export { rateRoutes } from "./rates";
export { resolverRoutes } from "./resolvers";
