import { createRoute, z } from "@hono/zod-openapi";
import { insertApiKey, listApiKeys, revokeApiKey } from "../db";
import { notFound } from "../errors";
import { createRouter } from "../http";
import { newId } from "../ids";
import { hashApiKey, newApiKey } from "../limits";
import { ApiKey, ApiKeyBody, ApiKeyIdParam, errorResponses, IssuedApiKey, jsonContent } from "../schemas";
import { requireAdmin, security } from "./admin";

const router = createRouter();
router.use("/v1/admin/api-keys", requireAdmin);
router.use("/v1/admin/api-keys/*", requireAdmin);

/** Integrators' API keys, issued, listed and revoked by the operator (docs/operations.md, "API keys"). */
export const apiKeyRoutes = router
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/api-keys",
      operationId: "issueApiKey",
      tags: ["admin"],
      summary: "Issue an API key: its requests count against its own quotas instead of its address",
      security,
      request: { body: { required: true, content: { "application/json": { schema: ApiKeyBody } } } },
      responses: { 201: jsonContent(IssuedApiKey, "The key, shown this once"), ...errorResponses(400, 401, 429) },
    }),
    async (c) => {
      const { name, quotas = {} } = c.req.valid("json");
      const key = newApiKey();
      const row = { id: newId("ak"), name, quotas, createdAt: new Date().toISOString() };
      await insertApiKey(c.env.DB, await hashApiKey(key), row);
      return c.json({ ...row, revokedAt: null, key }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/admin/api-keys",
      operationId: "listApiKeys",
      tags: ["admin"],
      summary: "Every API key issued, newest first (never the keys themselves)",
      security,
      responses: {
        200: jsonContent(z.object({ apiKeys: z.array(ApiKey) }), "The keys"),
        ...errorResponses(401, 429),
      },
    }),
    async (c) => c.json({ apiKeys: await listApiKeys(c.env.DB) }, 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/api-keys/{id}/revoke",
      operationId: "revokeApiKey",
      tags: ["admin"],
      summary: "Revoke an API key: within a minute its requests answer 401 invalid_api_key",
      security,
      request: { params: ApiKeyIdParam },
      responses: { 200: jsonContent(ApiKey, "The revoked key"), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const revoked = await revokeApiKey(c.env.DB, id, new Date().toISOString());
      if (!revoked) throw notFound(`No API key has the id ${id}.`);
      return c.json(revoked, 200);
    },
  );
