import { createRoute } from "@hono/zod-openapi";
import { readQuoteRecord } from "../db/quotes";
import { notFound } from "../errors";
import { createRouter } from "../http/router";
import { isId } from "../ids";
import { errorResponses, jsonContent } from "../schemas/common";
import { IdParam, QuoteRecord } from "../schemas/quote";

export const quoteRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/quotes/{id}",
    tags: ["quotes"],
    summary: "One quote's full lifecycle (record 2.2)",
    request: { params: IdParam },
    responses: { 200: jsonContent(QuoteRecord, "The quote record"), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const quote = isId("q", id) ? await readQuoteRecord(c.env.DB, id) : null;
    if (!quote) throw notFound(`No quote has the id ${JSON.stringify(id)}.`);
    return c.json(quote, 200);
  },
);
