import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { LimitOrderChains } from "./chains";
import { ConfigError, loadConfig, recordsDatabases } from "./config";
import type { AppEnv } from "./env";
import { invalidRequest, notFound, RelayError } from "./errors";
import {
  API_REFERENCE_PATH,
  allowedMethods,
  apiReference,
  asyncApiDocument,
  countObjectRead,
  createRouter,
  lineAfterAnswer,
  servedDocument,
} from "./http";
import { log, withRequestId } from "./log";
import { OBJECT_UNREACHABLE, unreachableRefusal } from "./objects";
import {
  adminRoutes,
  apiKeyRoutes,
  archiveRoutes,
  configRoutes,
  corridorRoutes,
  eventRoutes,
  executionRoutes,
  healthRoutes,
  limitOrderRoutes,
  limitOrdersDisabled,
  priceRoutes,
  quoteRoutes,
  rateRoutes,
  resolverRoutes,
} from "./routes";
import { jsonContent } from "./schemas";

export const MAX_BODY_BYTES = 64 * 1024;
const ADMIN_PATH = "/v1/admin/";
/**
 * The reads that ask an object every time (every corridor's nodes or status, the keeper, the oracle):
 * each counts against its client's reads (docs/security.md, "Reads that reach objects").
 */
const OBJECT_READS = ["/v1/nodes", "/v1/resolvers", "/v1/resolvers/*", "/v1/corridors", "/v1/health", "/v1/rates"];

const openApiInfo = {
  openapi: "3.1.0",
  info: {
    title: "Relay",
    version: "1.0.0",
    description: "RFQ swap relay: quotes from competing resolvers, gasless settlement by a keeper.",
  },
};

export interface AppOptions {
  /** How limit orders reach their chains; the chains' JSON-RPC unless a test gives a fake. */
  limitOrderChains?: LimitOrderChains;
}

/** The Worker's HTTP app: shared middleware, every route, one error shape. */
export function createApp(options: AppOptions = {}) {
  const app = createRouter();

  app.use(requestId());
  // Every line logged while serving a request carries its id; one line per request, written once its
  // answer has left (docs/operations.md, "Logs").
  app.use((c, next) =>
    withRequestId(c.get("requestId"), async () => {
      const started = Date.now();
      await next();
      const line = {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Date.now() - started,
        ...c.get("logFields"),
      };
      lineAfterAnswer(c, () => log.info("request", line));
    }),
  );
  app.use(
    cors({
      // The admin API answers no cross-origin request: a page elsewhere cannot use an operator's browser.
      origin: (_origin, c) => (c.req.path.startsWith(ADMIN_PATH) ? null : "*"),
      allowMethods: ["GET", "POST", "PUT", "OPTIONS"],
      // Every request header the relay reads, so a browser may send it (docs/api.md, "Conventions").
      allowHeaders: ["Content-Type", "Idempotency-Key", "X-Api-Key", "X-Request-Id", "Last-Event-ID"],
      exposeHeaders: ["X-Request-Id", "Retry-After", "Server-Timing"],
      maxAge: 86_400,
    }),
  );
  // A browser's Resource Timing shows the relay's Server-Timing phases to a page of any origin.
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("Timing-Allow-Origin", "*");
  });
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new RelayError(413, "payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`);
      },
    }),
  );
  app.use(async (c, next) => {
    const config = loadConfig(c.env.RELAY_CONFIG);
    // A database `records` names that the Worker lacks fails every request alike, as a bad configuration does.
    recordsDatabases(c.env, config);
    c.set("config", config);
    await next();
  });

  for (const path of OBJECT_READS) {
    app.use(path, async (c, next) => {
      if (c.req.method === "GET") await countObjectRead(c);
      await next();
    });
  }
  app.use("/v1/limit-orders", limitOrdersDisabled);
  app.use("/v1/limit-orders/*", limitOrdersDisabled);

  app.route("/", configRoutes);
  app.route("/", healthRoutes);
  app.route("/", quoteRoutes);
  app.route("/", executionRoutes);
  app.route("/", resolverRoutes);
  app.route("/", corridorRoutes);
  app.route("/", adminRoutes);
  app.route("/", apiKeyRoutes);
  app.route("/", archiveRoutes);
  app.route("/", rateRoutes);
  app.route("/", priceRoutes);
  app.route("/", limitOrderRoutes(options.limitOrderChains));
  app.route("/", eventRoutes);

  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/openapi.json",
      operationId: "getOpenApiDocument",
      tags: ["meta"],
      summary: "This document",
      responses: { 200: jsonContent(z.object({ openapi: z.string() }).passthrough(), "OpenAPI 3.1 document") },
    }),
    (c) => c.json(servedDocument(app.getOpenAPI31Document(openApiInfo), new URL(c.req.url).origin), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/asyncapi.json",
      operationId: "getAsyncApiDocument",
      tags: ["meta"],
      summary: "The resolver WebSocket protocol and the event streams as an AsyncAPI 3.0 document",
      description:
        "Every frame of the resolver protocol, both ways, and the events of the quote and limit-order streams, generated from their zod schemas (docs/resolver-protocol.md).",
      responses: { 200: jsonContent(z.object({ asyncapi: z.string() }).passthrough(), "AsyncAPI 3.0 document") },
    }),
    (c) => c.json(asyncApiDocument(new URL(c.req.url).origin), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: API_REFERENCE_PATH,
      operationId: "getApiReference",
      tags: ["meta"],
      summary: "This document as a page to read and try (Swagger UI; docs/explorer.md)",
      responses: { 200: { description: "The API reference page", content: { "text/html": { schema: z.string() } } } },
    }),
    apiReference,
  );

  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    if (allowed.length > 0) {
      return errorResponse(
        c,
        new RelayError(405, "method_not_allowed", `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`),
        { Allow: allowed.join(", ") },
      );
    }
    return errorResponse(c, notFound(`No route for ${c.req.method} ${c.req.path}.`));
  });

  app.onError((err, c) => {
    if (err instanceof RelayError) return errorResponse(c, err);
    if (err instanceof HTTPException && err.status === 400) {
      // Hono's JSON body parser: malformed JSON or a body that is not JSON.
      return errorResponse(c, invalidRequest([{ path: "", message: err.message }], "The body is not valid JSON."));
    }
    if (err instanceof HTTPException && err.status === 415) {
      // A body sent without `Content-Type: application/json` (e.g. `curl -d`), refused by the route's validator.
      return errorResponse(
        c,
        invalidRequest(
          [{ path: "content-type", message: "must be application/json" }],
          "Send the body as JSON with the header Content-Type: application/json.",
        ),
      );
    }
    if (err instanceof ConfigError) {
      log.error("config_invalid", { error: err.message });
      return errorResponse(c, new RelayError(500, "config_invalid", err.message));
    }
    // A Durable Object that cannot be reached now, or was reset mid-call (docs/api.md, "Conventions").
    const unreachable = unreachableRefusal(err, OBJECT_UNREACHABLE);
    if (unreachable) return errorResponse(c, RelayError.from(unreachable));
    log.error("internal_error", { error: String(err), stack: (err as Error)?.stack });
    return errorResponse(c, new RelayError(500, "internal_error", "Something went wrong on our side."));
  });

  return app;
}

function errorResponse(c: Context<AppEnv>, err: RelayError, headers: Record<string, string> = {}) {
  const retryAfter = err.extras.retryAfter;
  if (typeof retryAfter === "number") headers["Retry-After"] = String(retryAfter);
  return c.json(err.body(), err.status, headers);
}
