import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http";
import { assessHealth, probeHealth } from "../ops";
import { errorResponses, Health, jsonContent } from "../schemas";

/**
 * For monitors (docs/operations.md, "Health"): always 200 while the Worker runs, with `status` `ok` or
 * `degraded` and the degraded parts named; every part is bounded in time, so a dead RPC cannot hang it.
 */
export const healthRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/health",
    operationId: "getHealth",
    tags: ["meta"],
    summary: "The relay's parts: keeper, chains, oracle, corridors and their outbox, limit orders",
    responses: {
      200: jsonContent(Health, "Each part's state; `degraded` names the parts that are not ok"),
      ...errorResponses(429),
    },
  }),
  async (c) => {
    const probes = await probeHealth(c.env, c.get("config"));
    c.header("Cache-Control", "no-store");
    return c.json(assessHealth(probes, Date.now()), 200);
  },
);
