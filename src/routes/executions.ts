import { createRoute } from "@hono/zod-openapi";
import { readExecutionRecord } from "../db/executions";
import { notFound } from "../errors";
import { createRouter } from "../http/router";
import { isId } from "../ids";
import { errorResponses, jsonContent } from "../schemas/common";
import { ExecutionRecord, IdParam } from "../schemas/quote";

export const executionRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/executions/{id}",
    tags: ["executions"],
    summary: "One execution with its quote's lifecycle (record 2.1)",
    request: { params: IdParam },
    responses: { 200: jsonContent(ExecutionRecord, "The execution record"), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const execution = isId("x", id) ? await readExecutionRecord(c.env.DB, id) : null;
    if (!execution) throw notFound(`No execution has the id ${JSON.stringify(id)}.`);
    return c.json(execution, 200);
  },
);
