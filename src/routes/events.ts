import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { corridorOfKey, corridorsOfQuoteId } from "../chains";
import { readLimitOrder } from "../db";
import type { AppEnv } from "../env";
import { invalidRequest, notFound } from "../errors";
import { API_KEY_SECURITY, createRouter, requestClient } from "../http";
import { isId } from "../ids";
import { CORRIDOR_UNREACHABLE, callObject, corridorStub } from "../objects";
import { errorResponses, IdParam } from "../schemas";
import { lastEventId, limitOrderTopic, quoteTopic, STREAM_LIMITS, streamRequest } from "../streams";

/**
 * Server-Sent Events of a quote's and a limit order's progress (docs/api.md, "Event streams"). The
 * Worker finds the corridor object that hosts the subject's streams and hands the stream through.
 */

const streamContent = (description: string) => ({
  description,
  content: { "text/event-stream": { schema: z.string().openapi({ example: "id: 2\nevent: quoted\ndata: {…}\n\n" }) } },
});

const LastEventIdHeader = z.object({
  "last-event-id": z
    .string()
    .optional()
    .openapi({ description: "the `id` of the last event received: the stream resumes after it, without repeats" }),
});

const described = (what: string) =>
  `${what} The history is replayed first; a comment every ${STREAM_LIMITS.keepAliveMs / 1000} s keeps the stream open; ` +
  "the stream ends at the terminal state. At most `limits.streamsPerClient` (GET /v1/config) open streams per client on one corridor (429 rate_limited).";

export const eventRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/quotes/{id}/events",
      operationId: "streamQuoteEvents",
      security: API_KEY_SECURITY,
      tags: ["quotes"],
      summary: "The quote's timeline as Server-Sent Events, live until final",
      description: described("Each event's `event` is a timeline event name and `data` the timeline entry."),
      request: { params: IdParam, headers: LastEventIdHeader },
      responses: {
        200: streamContent("The event stream"),
        204: { description: "The stream has ended and the client has every event (Last-Event-ID): stop reconnecting" },
        ...errorResponses(400, 401, 404, 429, 503),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const last = resumeAfter(c);
      const corridors = isId("q", id) ? corridorsOfQuoteId(c.get("config"), id) : [];
      const who = await streamClient(c);
      for (const key of corridors) {
        const ask = streamRequest({ topic: quoteTopic(id), last, ...who });
        const answer = await callObject(async () => await corridorStub(c.env, key).fetch(ask), CORRIDOR_UNREACHABLE);
        if (answer.status !== 404) return handedThrough(answer);
      }
      throw notFound(`No quote has the id ${JSON.stringify(id)}.`);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/limit-orders/{id}/events",
      operationId: "streamLimitOrderEvents",
      security: API_KEY_SECURITY,
      tags: ["limit orders"],
      summary: "The limit order's status changes as Server-Sent Events, live until it ends",
      description: described(
        "Each event's `event` is a status the order took and `data` the record's changing fields after the move.",
      ),
      request: { params: IdParam, headers: LastEventIdHeader },
      responses: {
        200: streamContent("The event stream"),
        204: { description: "The stream has ended and the client has every event (Last-Event-ID): stop reconnecting" },
        ...errorResponses(400, 401, 404, 429, 503),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const last = resumeAfter(c);
      const who = await streamClient(c);
      const order = isId("lo", id) ? await readLimitOrder(c.env.DB, id) : null;
      if (!order) throw notFound(`No limit order has the id ${JSON.stringify(id)}.`);
      // An order of a corridor the relay no longer serves has no stream host left: its record still reads.
      if (!corridorOfKey(c.get("config"), order.corridor)) {
        throw notFound(`The limit order's corridor ${order.corridor} is no longer served; read the order instead.`);
      }
      const ask = streamRequest({ topic: limitOrderTopic(id), last, ...who });
      const answer = await callObject(
        async () => await corridorStub(c.env, order.corridor).fetch(ask),
        CORRIDOR_UNREACHABLE,
      );
      return handedThrough(answer);
    },
  );

function resumeAfter(c: Context<AppEnv>): number {
  const last = lastEventId(c.req.header("Last-Event-ID") ?? null);
  if (last === null) {
    throw invalidRequest([{ path: "Last-Event-ID", message: "must be the id of an event this stream sent" }]);
  }
  return last;
}

/** Who the per-client limit counts (docs/security.md, "Clients"), and how many streams it may hold on a corridor. */
async function streamClient(c: Context<AppEnv>): Promise<{ client: string; perClient: number }> {
  const { client, quotas } = await requestClient(c);
  return { client, perClient: quotas?.streamsPerClient ?? c.get("config").limits.streamsPerClient };
}

/** The host's answer with headers this app's middleware may still add to (a fetched Response's are immutable). */
const handedThrough = (answer: Response) =>
  answer.status === 204 ? new Response(null, { status: 204 }) : new Response(answer.body, answer);
