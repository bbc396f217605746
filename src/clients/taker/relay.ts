import type {
  EvmExecutionRequest,
  Execution,
  ExecutionAnswer,
  Quote,
  QuoteAnswer,
  QuoteRequest,
  SolanaExecutionRequest,
} from "./api";

/**
 * The taker's side of the relay's HTTP interface (docs/api.md): ask for a quote, submit it signed, and
 * follow it to `final`. Node 22 or a browser: plain `fetch`, no relay internals. Every request and answer
 * is the OpenAPI document's own type (./api.ts).
 */

/** `POST /v1/quotes` on EVM: the quote record plus the Permit2 typed data the taker signs. */
export type SignableQuote = QuoteAnswer & { typedData: Record<string, unknown> };

/**
 * On Solana, the quote record plus the swap transaction (base64, the resolver's signature in place, the
 * taker's and the keeper's slots empty) and the last block height at which its blockhash lets it land.
 */
export type SolanaQuote = QuoteAnswer & { transaction: string; lastValidBlockHeight: number };

/** A relay answer that is not a success: its status and the `{error, message, ...}` body. */
export class RelayHttpError extends Error {
  override readonly name = "RelayHttpError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface RelayCallOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /**
   * Sent with every request of the call, e.g. a gateway's own headers; the call's own headers
   * (`Idempotency-Key`, `content-type`) win over these.
   */
  headers?: Record<string, string>;
}

export async function relayCall<T>(
  relayUrl: string,
  path: string,
  init: RequestInit & { headers?: Record<string, string> },
  options: RelayCallOptions = {},
): Promise<{ status: number; body: T }> {
  const res = await (options.fetch ?? fetch)(`${relayUrl.replace(/\/+$/, "")}${path}`, {
    ...init,
    headers: {
      accept: "application/json",
      ...options.headers,
      ...(init.body ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    signal: options.signal ?? null,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: "not_json", message: text.slice(0, 200) };
  }
  if (!res.ok) {
    const b = (body ?? {}) as Record<string, unknown>;
    const code = typeof b.error === "string" ? b.error : `http_${res.status}`;
    const message =
      typeof b.message === "string" ? b.message : `${init.method ?? "GET"} ${path} answered ${res.status}`;
    throw new RelayHttpError(res.status, code, message, b);
  }
  return { status: res.status, body: body as T };
}

async function postQuote<T>(relayUrl: string, request: QuoteRequest, options?: RelayCallOptions): Promise<T> {
  return (await relayCall<T>(relayUrl, "/v1/quotes", { method: "POST", body: JSON.stringify(request) }, options)).body;
}

/** `POST /v1/quotes` on an EVM chain: runs the auction; the quote and its `typedData`. */
export async function requestQuote(
  relayUrl: string,
  request: QuoteRequest,
  options?: RelayCallOptions,
): Promise<SignableQuote> {
  const body = await postQuote<SignableQuote>(relayUrl, request, options);
  if (!body.typedData) throw new Error(`quote ${body.quoteId} came without typedData to sign`);
  return body;
}

/** `POST /v1/quotes` on a Solana chain: the quote, its `transaction` and `lastValidBlockHeight`. */
export async function requestSolanaQuote(
  relayUrl: string,
  request: QuoteRequest,
  options?: RelayCallOptions,
): Promise<SolanaQuote> {
  const body = await postQuote<SolanaQuote>(relayUrl, request, options);
  if (typeof body.transaction !== "string" || typeof body.lastValidBlockHeight !== "number") {
    throw new Error(`quote ${body.quoteId} came without a transaction and lastValidBlockHeight to sign`);
  }
  return body;
}

export interface SubmitOptions extends RelayCallOptions {
  /** Sent as `Idempotency-Key`: a retry with the same key returns the first execution. */
  idempotencyKey?: string;
  /** How often to retry a `not_leader` answer (after its `Retry-After`); default 3. */
  notLeaderRetries?: number;
}

export interface Submission {
  /** 202 when broadcast, 200 for a requote or a duplicate. */
  httpStatus: number;
  answer: ExecutionAnswer;
}

/** `POST /v1/executions`; a `not_leader` answer is retried after the `Retry-After` it carries. */
export async function submitExecution(
  relayUrl: string,
  request: EvmExecutionRequest | SolanaExecutionRequest,
  options: SubmitOptions = {},
): Promise<Submission> {
  const headers: Record<string, string> = options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {};
  for (let attempt = 0; ; attempt++) {
    try {
      const { status, body } = await relayCall<ExecutionAnswer>(
        relayUrl,
        "/v1/executions",
        { method: "POST", body: JSON.stringify(request), headers },
        options,
      );
      return { httpStatus: status, answer: body };
    } catch (e) {
      if (!(e instanceof RelayHttpError) || e.code !== "not_leader" || attempt >= (options.notLeaderRetries ?? 3)) {
        throw e;
      }
      const seconds = typeof e.body.retryAfter === "number" ? e.body.retryAfter : 2;
      await new Promise((r) => setTimeout(r, seconds * 1000));
    }
  }
}

export async function getQuote(relayUrl: string, quoteId: string, options?: RelayCallOptions): Promise<Quote> {
  return (await relayCall<Quote>(relayUrl, `/v1/quotes/${encodeURIComponent(quoteId)}`, {}, options)).body;
}

export async function getExecution(
  relayUrl: string,
  executionId: string,
  options?: RelayCallOptions,
): Promise<Execution> {
  return (await relayCall<Execution>(relayUrl, `/v1/executions/${encodeURIComponent(executionId)}`, {}, options)).body;
}
