import { createRoute, z } from "@hono/zod-openapi";
import { findCorridor } from "../chains";
import { RelayError } from "../errors";
import { createRouter } from "../http";
import { corridorStub } from "../objects";
import { corridorRecord, corridorStatuses, HEALTH_PART_TIMEOUT_MS } from "../ops";
import { CLOSE_POLICY } from "../protocol";
import { CorridorRecord, errorResponses, jsonContent } from "../schemas";

export const corridorRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/corridors",
      operationId: "listCorridors",
      tags: ["resolvers"],
      summary: "Every corridor served, with its state: quoting, degraded (no fresh resolver) or paused",
      responses: {
        200: jsonContent(z.object({ corridors: z.array(CorridorRecord) }), "The corridors"),
        ...errorResponses(429),
      },
    }),
    async (c) => {
      const statuses = await corridorStatuses(c.env, c.get("config"), HEALTH_PART_TIMEOUT_MS);
      const corridors = statuses.map(({ corridor, status }) =>
        corridorRecord(corridor, status.ok ? status.value : null),
      );
      return c.json({ corridors }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/corridors/{chainId}/{tokenA}/{tokenB}/connect",
      operationId: "connectResolver",
      tags: ["resolvers"],
      summary: "Resolver WebSocket (see docs/resolver-protocol.md)",
      request: {
        params: z.object({
          chainId: z.coerce
            .number()
            .int()
            .positive()
            .openapi({ param: { name: "chainId", in: "path" } }),
          tokenA: z.string().openapi({ param: { name: "tokenA", in: "path" } }),
          tokenB: z.string().openapi({ param: { name: "tokenB", in: "path" } }),
        }),
      },
      responses: {
        101: { description: "Switching protocols: the resolver socket" },
        ...errorResponses(400, 426, 429),
      },
    }),
    async (c) => {
      if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
        throw new RelayError(426, "upgrade_required", "This endpoint only speaks WebSocket.");
      }
      const { chainId, tokenA, tokenB } = c.req.valid("param");
      const corridor = findCorridor(c.get("config"), chainId, tokenA, tokenB);
      if (!corridor)
        return refuseSocket("unsupported_corridor", `the relay does not serve ${chainId}/${tokenA}/${tokenB}`);
      // The corridor object knows its corridor from its name, and the advertised token order from the URL;
      // it refuses a client over its socket limits with 429 (docs/security.md, "Limits").
      const answer = await corridorStub(c.env, corridor.key).fetch(c.req.raw);
      return answer.status === 101 ? answer : new Response(answer.body, answer);
    },
  );

/** Completes the upgrade only to say why, so a resolver sees a readable error frame and close reason. */
function refuseSocket(code: string, message: string): Response {
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  server.send(JSON.stringify({ type: "error", code, message }));
  server.close(CLOSE_POLICY, code);
  return new Response(null, { status: 101, webSocket: pair[0] });
}
