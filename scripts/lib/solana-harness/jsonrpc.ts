/**
 * JSON-RPC 2.0 framing (https://www.jsonrpc.org/specification): one request or a batch in, the answers
 * out, notifications (no `id`) run and unanswered. What each method does is the dispatcher's business.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** An error answered as the JSON-RPC `error` member. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export function invalidParams(detail: string): RpcError {
  return new RpcError(INVALID_PARAMS, `Invalid params: ${detail}`);
}

export type RpcParams = unknown[] | Record<string, unknown> | undefined;
export type Dispatch = (method: string, params: RpcParams) => unknown;

type Id = string | number | null;
type Response = { jsonrpc: "2.0"; id: Id; result: unknown } | { jsonrpc: "2.0"; id: Id; error: ErrorBody };
interface ErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

function errorBody(err: unknown): ErrorBody {
  if (err instanceof RpcError) {
    return err.data === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, data: err.data };
  }
  return { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : "Internal error" };
}

function isId(value: unknown): value is Id {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** The answer to one request object, or null for a notification. */
function answer(request: unknown, dispatch: Dispatch): Response | null {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid request" } };
  }
  const r = request as Record<string, unknown>;
  const notification = !("id" in r);
  const id = isId(r.id) ? r.id : null;
  const params = r.params;
  const validParams = params === undefined || (typeof params === "object" && params !== null);
  if (r.jsonrpc !== "2.0" || typeof r.method !== "string" || !validParams || (!notification && !isId(r.id))) {
    return { jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message: "Invalid request" } };
  }
  let response: Response;
  try {
    response = { jsonrpc: "2.0", id, result: dispatch(r.method, params as RpcParams) };
  } catch (err) {
    response = { jsonrpc: "2.0", id, error: errorBody(err) };
  }
  return notification ? null : response;
}

/**
 * A bigint's place in the JSON text before its digits are put in: a string led by an invisible separator
 * (U+2063), which JSON.stringify leaves as it is and no answer of the chain carries.
 */
const BIGINT_MARK = /"\u2063u64:(\d+)"/g;

/**
 * JSON text with every bigint as its exact digits, a u64 a JSON number cannot hold (a rent epoch of
 * u64::MAX), as Solana's own nodes write them.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? `\u2063u64:${v}` : v)).replace(BIGINT_MARK, "$1");
}

/** The response body for a request body, or null when nothing is to be answered (only notifications). */
export function handleJsonRpc(body: string, dispatch: Dispatch): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "Parse error" } });
  }
  if (!Array.isArray(parsed)) {
    const one = answer(parsed, dispatch);
    return one === null ? null : toJsonText(one);
  }
  if (parsed.length === 0) {
    return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid request" } });
  }
  const answers = parsed.map((request) => answer(request, dispatch)).filter((a) => a !== null);
  return answers.length === 0 ? null : toJsonText(answers);
}
