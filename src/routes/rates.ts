import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http";
import { errorResponses, jsonContent, Rates } from "../schemas";
import { oracleStub } from "../stubs";

export const rateRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/rates",
    operationId: "getRates",
    tags: ["rates"],
    summary: "Reference rates: the advisory band of each corridor and every source behind it (2.5)",
    responses: { 200: jsonContent(Rates, "Bands, sources and the sources failing now"), ...errorResponses(429, 500) },
  }),
  async (c) => c.json(await oracleStub(c.env).rates(), 200),
);
