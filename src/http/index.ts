/**
 * HTTP plumbing under the routes: the router, the request's client, Server-Timing, work behind the answer,
 * the API reference and the AsyncAPI document.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { behindAnswer, lineAfterAnswer, serverTiming } from "./answer";
export { API_REFERENCE_PATH, apiReference } from "./api-reference";
export { asyncApiDocument } from "./asyncapi-document";
export { checkAdminToken, type RequestClient, requestClient } from "./client";
export { countObjectRead, objectRead } from "./object-reads";
export { API_KEY_SECURITY, servedDocument } from "./openapi-document";
export { createRouter } from "./router";
export { allowedMethods } from "./routes-table";
