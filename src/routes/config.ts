import { createRoute } from "@hono/zod-openapi";
import { configRecord } from "../config";
import { createRouter } from "../http";
import { Config, errorResponses, jsonContent } from "../schemas";

export const configRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/config",
    operationId: "getConfig",
    tags: ["config"],
    summary: "The relay configuration (record 2.6)",
    responses: { 200: jsonContent(Config, "The configuration record"), ...errorResponses(500) },
  }),
  (c) => c.json(configRecord(c.get("config")), 200),
);
