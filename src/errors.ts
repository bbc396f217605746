import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

export type Extras = Record<string, unknown>;

/**
 * A request refused by a Durable Object (the corridor's auction, the keeper): plain data, so it crosses
 * the RPC boundary as it is; the route throws it as a RelayError (`RelayError.from`).
 */
export interface Refusal {
  kind: "refused";
  status: 400 | 404 | 409 | 429 | 503;
  code: string;
  message: string;
  extras: Record<string, string | number | Record<string, number> | Issue[]>;
}

export const refuse = (
  status: Refusal["status"],
  code: string,
  message: string,
  extras: Refusal["extras"] = {},
): Refusal => ({ kind: "refused", status, code, message, extras });

/**
 * The one error type of the relay. `app.onError` turns it into
 * `{ "error": code, "message": message, ...extras }` with `status`.
 */
export class RelayError extends Error {
  override readonly name = "RelayError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extras: Extras = {},
  ) {
    super(message);
  }

  static from(refusal: Refusal): RelayError {
    return new RelayError(refusal.status, refusal.code, refusal.message, refusal.extras);
  }

  body(): Extras {
    return { error: this.code, message: this.message, ...this.extras };
  }
}

export interface Issue {
  path: string;
  message: string;
}

export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

export const invalidRequest = (issues: Issue[], message = "The request is malformed.") =>
  new RelayError(400, "invalid_request", message, { issues });

export const notFound = (message = "Nothing is here.") => new RelayError(404, "not_found", message);

/** A 429 or 503 the caller should retry: `retryAfter` also becomes the `Retry-After` header. */
export const retryLater = (status: 429 | 503, code: string, message: string, retryAfter: number, extras: Extras = {}) =>
  new RelayError(status, code, message, { ...extras, retryAfter });

/** An error as a JSON response, with its `Retry-After` when it has one, for an object that answers HTTP itself. */
export function errorJson(error: RelayError): Response {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const retryAfter = error.extras.retryAfter;
  if (typeof retryAfter === "number") headers["Retry-After"] = String(retryAfter);
  return new Response(JSON.stringify(error.body()), { status: error.status, headers });
}
