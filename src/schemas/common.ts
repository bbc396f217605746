import { z } from "@hono/zod-openapi";

export const Amount = z
  .string()
  .regex(/^(0|[1-9]\d*)$/)
  .openapi({ description: "Base units, decimal string", example: "1000000" });
/** An amount that fits a uint256, as the contracts take it. */
export const Uint256 = Amount.refine((v) => !/^\d+$/.test(v) || BigInt(v) < 2n ** 256n, "must be below 2^256");
export const Timestamp = z.string().openapi({ description: "ISO 8601", example: "2026-11-22T10:00:00.000Z" });
export const Address = z.string().openapi({ description: "0x address on EVM, base58 on Solana" });

export const ErrorBody = z
  .object({
    error: z.string().openapi({ example: "not_found" }),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    retryAfter: z.number().optional(),
  })
  .catchall(z.unknown())
  .openapi("ErrorBody");

const RetryAfterHeader = {
  description: "Seconds to wait before asking again (also `retryAfter` in the body)",
  schema: { type: "integer" as const, minimum: 0 },
};

/** The error responses a route can give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  const described: Record<number, string> = {
    400: "Invalid request",
    401: "Missing or wrong credentials",
    404: "Not found",
    409: "Conflict with the resource's state",
    413: "Body over 64 KiB",
    429: "Too many requests; see Retry-After",
    500: "Internal error",
    503: "Unavailable; see Retry-After",
  };
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: described[s] ?? "Error",
        ...(s === 429 || s === 503 ? { headers: { "Retry-After": RetryAfterHeader } } : {}),
        content: { "application/json": { schema: ErrorBody } },
      },
    ]),
  );
}

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Most elements one page of a list holds (docs/api.md, "Lists"). */
export const MAX_PAGE = 100;

/** A list's `chainId` filter, a query string. */
export const ChainIdQuery = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be a chain id")
  .transform(Number)
  .optional();

/** A list's page size and where the page starts: `limit` (50 by default) and `cursor` (docs/api.md, "Lists"). */
export const pageQuery = (what: string) => ({
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, "must be a whole number from 1")
    .transform(Number)
    .pipe(z.number().max(MAX_PAGE))
    .optional()
    .openapi({ type: "string", description: `${what} per page, at most ${MAX_PAGE}; 50 by default` }),
  cursor: z.string().max(200).optional().openapi({ description: "`nextCursor` of the previous page" }),
});
