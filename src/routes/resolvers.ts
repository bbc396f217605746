import { createRoute, z } from "@hono/zod-openapi";
import { readTotals } from "../db/resolver-days";
import { listResolvers } from "../db/resolvers";
import { createRouter } from "../http/router";
import { liveNodes } from "../nodes/live";
import { buildDirectory } from "../resolvers/directory";
import { windowStart } from "../resolvers/reliability";
import { jsonContent } from "../schemas/common";
import { NodeRecord, ResolverRecord } from "../schemas/resolvers";

export const resolverRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/nodes",
      operationId: "listNodes",
      tags: ["resolvers"],
      summary: "Connected resolver nodes: the relay's in-memory view from their last heartbeats",
      responses: { 200: jsonContent(z.object({ nodes: z.array(NodeRecord) }), "Connected nodes") },
    }),
    async (c) => c.json({ nodes: await liveNodes(c.env, c.get("config")) }, 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/resolvers",
      operationId: "listResolvers",
      tags: ["resolvers"],
      summary: "The resolver directory",
      request: {
        query: z.object({
          include: z.enum(["inactive"]).optional().openapi({ description: "`inactive` lists every resolver" }),
        }),
      },
      responses: {
        200: jsonContent(
          z.object({ resolvers: z.array(ResolverRecord), inactive: z.number().int() }),
          "Resolvers, and how many inactive ones were left out",
        ),
      },
    }),
    async (c) => {
      const now = Date.now();
      const [rows, totals, live] = await Promise.all([
        listResolvers(c.env.DB),
        readTotals(c.env.DB, windowStart(now)),
        liveNodes(c.env, c.get("config"), now),
      ]);
      return c.json(buildDirectory(rows, totals, live, now, c.req.valid("query").include === "inactive"), 200);
    },
  );
