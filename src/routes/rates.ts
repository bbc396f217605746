import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http";
import { callObject, ORACLE_UNREACHABLE, oracleStub } from "../objects";
import { errorResponses, jsonContent, Rates } from "../schemas";

export const rateRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/rates",
    operationId: "getRates",
    tags: ["rates"],
    summary: "Reference rates: the advisory band of each corridor and every source behind it (2.5)",
    responses: {
      200: jsonContent(Rates, "Bands, sources and the sources failing now"),
      ...errorResponses(429, 500, 503),
    },
  }),
  async (c) => c.json(await callObject(async () => await oracleStub(c.env).rates(), ORACLE_UNREACHABLE), 200),
);
