import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { invalidRequest, zodIssues } from "../errors";

/**
 * A router whose failed validations all answer 400 `invalid_request` with the list of issues, and whose
 * paths match with or without a trailing slash (`/v1/quotes/` is `/v1/quotes`).
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw invalidRequest(zodIssues(result.error), "The request failed validation.");
    },
  });
}
