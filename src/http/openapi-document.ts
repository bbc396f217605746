/**
 * What every operation of the API shares, added to the OpenAPI document the routes' zod schemas generate
 * (docs/api.md, "Conventions" and "The OpenAPI document"): the server it is served from, the request id
 * both ways, `security: []` on the public operations (the admin ones declare the bearer token, the ones
 * that read `X-Api-Key` the optional key: `API_KEY_SECURITY`), 413 on a
 * body over 64 KiB, 405 on a method the path does not take, and `Server-Timing` where it is sent.
 */

interface Operation {
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
}

interface OpenApiDocument {
  info: object;
  paths?: object;
  components?: { securitySchemes?: object };
}

/**
 * How an operation that reads `X-Api-Key` declares it (docs/api.md, "Limits"): the key is optional (a
 * request without one counts against its address), and a wrong or revoked one is 401 `invalid_api_key`.
 */
export const API_KEY_SECURITY: Record<string, string[]>[] = [{}, { apiKey: [] }];

const apiKeyScheme = {
  type: "apiKey",
  in: "header",
  name: "X-Api-Key",
  description:
    "An integrator's key (docs/api.md, \"Limits\"): its requests count against the key at its own quotas instead of the caller's address. Optional; a key the relay did not issue, or revoked, is 401 `invalid_api_key`.",
};

const METHODS = new Set(["get", "put", "post", "delete", "patch", "options", "head"]);

const requestIdHeader = {
  description: "The request's id: the caller's `X-Request-Id`, or one the relay made; in every log line it caused",
  schema: { type: "string" },
};

/** Operations that answer with `Server-Timing` phases (docs/api.md, "Server-Timing"), by their success statuses. */
const SERVER_TIMING: Record<string, string[]> = { requestQuote: ["200"], submitExecution: ["200", "202"] };

const serverTimingHeader = {
  description:
    "Where the relay's time went: `auction`, `ranking`, `storage`, `total` (quotes); keeper phases (executions)",
  schema: { type: "string" },
};

const errorOf = (description: string) => ({
  description,
  headers: {},
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
});

/** The document as served from `origin`: a copy with the shared parts added; the routes' own parts kept. */
export function servedDocument<D extends OpenApiDocument>(doc: D, origin: string): D {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => [
        method,
        METHODS.has(method) ? withConventions(op as Operation & { operationId?: string }) : op,
      ]),
    );
  }
  return {
    ...doc,
    info: { ...doc.info, license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } },
    servers: [{ url: origin, description: "This relay" }],
    paths,
    components: {
      ...doc.components,
      securitySchemes: { ...doc.components?.securitySchemes, apiKey: apiKeyScheme },
    },
  };
}

function withConventions(op: Operation & { operationId?: string }): Operation {
  const responses: Operation["responses"] = {
    ...op.responses,
    ...(op.requestBody && !op.responses["413"] ? { 413: errorOf("Body over 64 KiB") } : {}),
    ...(!op.responses["405"] ? { 405: errorOf("Method not allowed on this path; see Allow") } : {}),
  };
  const timed = SERVER_TIMING[op.operationId ?? ""] ?? [];
  for (const [status, response] of Object.entries(responses)) {
    responses[status] = {
      ...response,
      headers: {
        ...response.headers,
        "X-Request-Id": requestIdHeader,
        ...(timed.includes(status) ? { "Server-Timing": serverTimingHeader } : {}),
      },
    };
  }
  return {
    ...op,
    security: op.security ?? [],
    parameters: [...(op.parameters ?? []), { name: "X-Request-Id", in: "header", required: false, ...requestIdHeader }],
    responses,
  };
}
