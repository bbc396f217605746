import { swaggerUI } from "@hono/swagger-ui";

/** Where the API reference page is; linked from the explorer and README.md. */
export const API_REFERENCE_PATH = "/reference";

/**
 * The API reference page: Swagger UI rendering `/v1/openapi.json`. Its script and styles are static
 * assets copied from swagger-ui-dist at install (`scripts/copy-swagger-ui.mjs`) to
 * `/vendor/swagger-ui-dist/`, so the page needs no CDN (docs/explorer.md).
 */
export const apiReference = swaggerUI({
  title: "Relay API reference",
  url: "/v1/openapi.json",
  baseUrl: "/vendor",
  docExpansion: "list",
});
