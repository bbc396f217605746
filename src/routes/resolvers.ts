import { createRoute, z } from "@hono/zod-openapi";
import { recordsDatabases } from "../config";
import { readDays, readLevelCounts, readResolver, readStrikeHistory, readUncountedFailuresOver, sumDays } from "../db";
import { notFound } from "../errors";
import { createRouter } from "../http";
import { resolverKey } from "../ids";
import { honestLevels, levelsSinceDay, levelsStanding } from "../levels";
import { liveNodes } from "../nodes";
import { buildDirectory, directoryPage, standingRecord, windowStart } from "../resolvers";
import {
  EvmAddressParam,
  errorResponses,
  jsonContent,
  Node,
  ResolverListQuery,
  ResolverPage,
  ResolverStanding,
} from "../schemas";

/** How many strikes, and failures not counted, a resolver's record lists. */
const HISTORY = 50;

export const resolverRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/nodes",
      operationId: "listNodes",
      tags: ["resolvers"],
      summary: "Connected resolver nodes: the relay's in-memory view from their last heartbeats",
      responses: { 200: jsonContent(z.object({ nodes: z.array(Node) }), "Connected nodes"), ...errorResponses(429) },
    }),
    async (c) => c.json({ nodes: await liveNodes(c.env, c.get("config")) }, 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/resolvers",
      operationId: "listResolvers",
      tags: ["resolvers"],
      summary: "The resolver directory, by address, a page at a time",
      request: { query: ResolverListQuery },
      responses: {
        200: jsonContent(ResolverPage, "A page of resolvers, and how many inactive ones were left out"),
        ...errorResponses(400, 429),
      },
    }),
    async (c) => {
      const now = Date.now();
      const live = await liveNodes(c.env, c.get("config"), now);
      return c.json(await directoryPage(c.env.DB, live, c.req.valid("query"), now), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/resolvers/{address}",
      operationId: "getResolver",
      tags: ["resolvers"],
      summary: "One resolver's record, and what stands behind it: strikes, failures not counted, its 7 days",
      request: { params: EvmAddressParam },
      responses: { 200: jsonContent(ResolverStanding, "The resolver's standing"), ...errorResponses(400, 404, 429) },
    }),
    async (c) => {
      const { address } = c.req.valid("param");
      const now = Date.now();
      const since = windowStart(now);
      const [row, live, strikes, failures, days, levelCounts] = await Promise.all([
        readResolver(c.env.DB, address),
        liveNodes(c.env, c.get("config"), now),
        readStrikeHistory(c.env.DB, address, HISTORY),
        readUncountedFailuresOver(recordsDatabases(c.env, c.get("config")).all, address, HISTORY),
        readDays(c.env.DB, address, since),
        readLevelCounts(c.env.DB, address, levelsSinceDay(now)),
      ]);
      // The window's totals are its days summed: one read of the resolver's days serves both.
      const totals = sumDays(days);
      const record =
        row && buildDirectory([row], new Map([[resolverKey(address), totals]]), live, now, true).resolvers[0];
      if (!record) throw notFound(`No resolver has the address ${address}.`);
      const windowMs = c.get("config").rfqWindowMs;
      const levels = levelsStanding(levelCounts);
      const honest = honestLevels(levels);
      return c.json(
        standingRecord(record, { strikes, failures, days, totals, windowMs, now, levels, honestLevels: honest }),
        200,
      );
    },
  );
