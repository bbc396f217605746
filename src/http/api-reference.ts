import { swaggerUI } from "@hono/swagger-ui";
import type { Context, Next } from "hono";
import type { AppEnv } from "../env";

/** Where the API reference page is; linked from the explorer and README.md. */
export const API_REFERENCE_PATH = "/reference";

/**
 * Swagger UI rendering `/v1/openapi.json`. Its script and styles are static assets copied from
 * swagger-ui-dist at install (`scripts/copy-swagger-ui.mjs`) to `/vendor/swagger-ui-dist/`, so the page
 * needs no CDN (docs/explorer.md).
 */
const page = swaggerUI<AppEnv>({
  title: "Relay API reference",
  url: "/v1/openapi.json",
  baseUrl: "/vendor",
  docExpansion: "list",
});

/** The API reference page, as a route's handler: the middleware always answers, never passes on. */
export async function apiReference(c: Context<AppEnv>, next: Next): Promise<Response> {
  return (await page(c, next)) ?? c.notFound();
}
