import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv, Env } from "../env";
import { notFound, RelayError } from "../errors";
import { API_KEY_SECURITY, createRouter, objectRead, type RequestClient, requestClient, serverTiming } from "../http";
import { KEEPER_UNREACHABLE, type SubmitOutcome, type SubmitRequest, submissionLogFields } from "../keeper";
import { callObject, keeperStub } from "../objects";
import { executionThrough } from "../quotes";
import {
  Execution,
  ExecutionAnswer,
  ExecutionRequest,
  errorResponses,
  IdParam,
  jsonContent,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from "../schemas";
import { acceptedAnswer } from "./execution-answer";

export const executionRoutes = createRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/executions",
      operationId: "submitExecution",
      security: API_KEY_SECURITY,
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
        ...errorResponses(400, 401, 404, 409, 429, 503),
      },
    }),
    // The keeper leader counts the client's refused submissions and those it holds (docs/security.md).
    async (c) => submission(c, await requestClient(c), c.req.valid("json")),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/executions/{id}",
      operationId: "getExecution",
      tags: ["executions"],
      summary: "One execution with its quote's lifecycle (record 2.1)",
      request: { params: IdParam },
      responses: { 200: jsonContent(Execution, "The execution record"), ...errorResponses(404, 429) },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const execution = await executionThrough(c.env, c.get("config"), id, objectRead(c));
      if (!execution) throw notFound(`No execution has the id ${JSON.stringify(id)}.`);
      return c.json(execution, 200);
    },
  );

/**
 * A submission, handed to the keeper leader with its client: a stranger's junk is counted there against the
 * stranger, never against the quote's taker, whose limit counts only submissions whose signature verified
 * (docs/security.md, "Limits").
 */
async function submission(c: Context<AppEnv>, client: RequestClient, body: z.infer<typeof ExecutionRequest>) {
  const idempotencyKey = c.req.header("Idempotency-Key") ?? null;
  if (idempotencyKey !== null && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new RelayError(
      400,
      "idempotency_key_too_long",
      `The Idempotency-Key is over ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
    );
  }
  const started = Date.now();
  const outcome = await submit(c.env, {
    quoteId: body.quoteId,
    chainId: body.chainId,
    // The keeper takes the field its quote's chain names, once it has read the quote.
    takerPart: "signature" in body ? { signature: body.signature } : { transaction: body.transaction },
    permit: ("permit" in body ? body.permit : undefined) ?? null,
    ...("minReceived" in body && body.minReceived !== undefined ? { minReceived: body.minReceived } : {}),
    idempotencyKey,
    requestId: c.get("requestId"),
    client,
  });
  // What the keeper answered goes on the request's one line (docs/operations.md, "Logs").
  c.set("logFields", submissionLogFields(body.quoteId, outcome));
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
  return callObject<SubmitOutcome>(async () => await keeperStub(env).submit(request), KEEPER_UNREACHABLE);
}
