import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { settlerFor } from "../chains";
import { executionForQuoteKey, readQuoteRow } from "../db";
import type { AppEnv, Env } from "../env";
import { invalidRequest, notFound, RelayError } from "../errors";
import { callObject, createRouter, FailureGate, requestClient, serverTiming } from "../http";
import { chainNotServed, duplicateOf, keyReused, type SubmitOutcome, type SubmitRequest } from "../keeper";
import { perPeriod } from "../limits";
import { executionThrough, readThrough } from "../quotes";
import {
  Execution,
  ExecutionAnswer,
  ExecutionRequest,
  errorResponses,
  IdParam,
  jsonContent,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from "../schemas";
import { keeperStub } from "../stubs";
import { acceptedAnswer } from "./execution-answer";

export const executionRoutes = createRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/executions",
      operationId: "submitExecution",
      tags: ["executions"],
      summary: "Submit a signed quote: the keeper simulates, broadcasts and pays the gas",
      request: {
        headers: z.object({
          "idempotency-key": z
            .string()
            .optional()
            .openapi({
              description: `Up to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters: a repeat with the same key answers the first execution`,
            }),
        }),
        body: { required: true, content: { "application/json": { schema: ExecutionRequest } } },
      },
      responses: {
        200: jsonContent(ExecutionAnswer, "A requote (nothing moved), or the first execution of a repeated key"),
        202: jsonContent(ExecutionAnswer, "Broadcast: the execution is submitted"),
        ...errorResponses(400, 404, 409, 429, 503),
      },
    }),
    async (c) => {
      const { client } = await requestClient(c);
      // Refused for what was sent (a wrong signature, quote or key), a submission counts against its client.
      return failedSubmissions.guard(
        c,
        client,
        () => submission(c, c.req.valid("json")),
        (e) => e instanceof RelayError && COUNTED_FAILURES.has(e.status),
      );
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/executions/{id}",
      operationId: "getExecution",
      tags: ["executions"],
      summary: "One execution with its quote's lifecycle (record 2.1)",
      request: { params: IdParam },
      responses: { 200: jsonContent(Execution, "The execution record"), ...errorResponses(404) },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const execution = await executionThrough(c.env, id);
      if (!execution) throw notFound(`No execution has the id ${JSON.stringify(id)}.`);
      return c.json(execution, 200);
    },
  );

/**
 * Submissions refused for what they sent, per client (docs/security.md, "Limits"): a stranger's junk is
 * counted against the stranger, never against the quote's taker, whose limit counts only submissions whose
 * signature verified (in the keeper).
 */
const failedSubmissions = new FailureGate("refused submissions", (l) => perPeriod(l.failedSubmissionsPer10s, 10));
const COUNTED_FAILURES = new Set([400, 404, 409]);

async function submission(c: Context<AppEnv>, body: z.infer<typeof ExecutionRequest>) {
  const idempotencyKey = c.req.header("Idempotency-Key") ?? null;
  if (idempotencyKey !== null && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new RelayError(
      400,
      "idempotency_key_too_long",
      `The Idempotency-Key is over ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
    );
  }
  // A repeat is answered from the key's record and counted against nothing (docs/api.md, "Idempotency-Key");
  // the key is read beside the quote, scoped to its taker in SQL (a quote D1 does not have yet has no
  // execution either). The keeper reads the key again under its lock: only that read sees a concurrent
  // repeat's execution.
  const [quote, first] = await Promise.all([
    readThrough(c.env, c.get("config"), body.quoteId, (db) => readQuoteRow(db, body.quoteId)),
    idempotencyKey
      ? executionForQuoteKey(c.env.DB, body.quoteId, idempotencyKey, new Date().toISOString())
      : Promise.resolve(null),
  ]);
  if (!quote) throw new RelayError(404, "quote_not_found", `No quote has the id ${JSON.stringify(body.quoteId)}.`);
  if (first && first.quoteId !== quote.quoteId) throw RelayError.from(keyReused(first.quoteId));
  if (first) {
    const answer = acceptedAnswer(duplicateOf(first));
    return c.json(answer.body, answer.status);
  }
  if (body.chainId !== undefined && body.chainId !== quote.chainId) {
    throw new RelayError(409, "wrong_chain", `The quote is on chain ${quote.chainId}, not ${body.chainId}.`);
  }
  const chain = c.get("config").chains.find((ch) => ch.chainId === quote.chainId);
  if (!chain) throw RelayError.from(chainNotServed(quote.chainId));
  const settlement = settlerFor(chain);
  // The taker's part sits in the body field the chain's settlement names.
  const fields: Record<string, unknown> = body;
  const takerPart = fields[settlement.submissionField];
  if (typeof takerPart !== "string") {
    throw invalidRequest(
      [{ path: settlement.submissionField, message: settlement.submissionHint }],
      "The request failed validation.",
    );
  }
  const started = Date.now();
  const outcome = await submit(c.env, {
    quoteId: body.quoteId,
    signature: takerPart,
    permit: ("permit" in body ? body.permit : undefined) ?? null,
    idempotencyKey,
    quote,
    requestId: c.get("requestId"),
  });
  // Where the keeper's time went (docs/api.md, "Server-Timing"), and the whole call to it.
  const phases = "timings" in outcome ? (outcome.timings ?? {}) : {};
  c.header("Server-Timing", serverTiming({ ...phases, keeper: Date.now() - started }));
  if (outcome.kind === "refused") throw RelayError.from(outcome);
  const answer = acceptedAnswer(outcome);
  return c.json(answer.body, answer.status);
}

/**
 * Hands the submission to the keeper leader; an object that cannot be reached right now is `not_leader`, and
 * so is one reset while it held the submission (a deploy, an eviction), which may have broadcast it: the
 * same Idempotency-Key then answers the first execution (docs/settlement.md, "not_leader").
 */
function submit(env: Env, request: SubmitRequest): Promise<SubmitOutcome> {
  return callObject<SubmitOutcome>(async () => await keeperStub(env).submit(request), {
    message: "The keeper is restarting; submit again shortly.",
    reason: "keeper_unreachable",
    reset: {
      message:
        "The keeper restarted while it held the submission, which may have gone out: submit again with the same Idempotency-Key for its answer.",
      reason: "keeper_restarted",
    },
  });
}
