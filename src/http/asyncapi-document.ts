import { z } from "zod";
import { NODE_FRAME_EXAMPLES, nodeFrame, RELAY_FRAME_EXAMPLES, relayFrame } from "../protocol";
import { LIMIT_ORDER_STREAM_EVENTS, QUOTE_STREAM_EVENTS } from "../schemas";

/**
 * The AsyncAPI 3.0 document of what the relay says and hears outside request and answer
 * (docs/resolver-protocol.md, "The AsyncAPI document"): the resolver WebSocket, every frame of both
 * zod unions a message, and the two Server-Sent Event streams (docs/api.md, "Event streams"). Generated
 * from the zod schemas with `z.toJSONSchema`, so a frame added to a union is in the document with it.
 */

type Json = Record<string, unknown>;
type Schema = z.ZodType;
type Document = Json & { asyncapi: string };

/** A zod schema as JSON Schema (draft 7, which AsyncAPI's own schema format extends). */
function jsonSchema(schema: Schema, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Json;
  return rest;
}

/** Each option's `type` literal: the frame's name. */
function frameType(option: Schema): string {
  const shape = (option as unknown as { shape: { type: { value: string } } }).shape;
  return shape.type.value;
}

interface MessageSpec {
  id: string;
  name: string;
  summary: string;
  payload: Json;
  examples: unknown[];
}

function message(spec: MessageSpec): Json {
  return {
    name: spec.name,
    title: spec.name,
    summary: spec.summary,
    contentType: "application/json",
    payload: { $ref: `#/components/schemas/${spec.id}` },
    examples: spec.examples.map((payload, i) => ({ name: `${spec.id}-${i + 1}`, payload })),
  };
}

/** The frames of one direction as messages: every option of the union, with its examples. */
function frameMessages(
  union: { options: readonly Schema[] },
  examples: Record<string, unknown[]>,
  io: "input" | "output",
  from: string,
): MessageSpec[] {
  return union.options.map((option) => {
    const type = frameType(option);
    return {
      id: type,
      name: type,
      summary: `${from}: the \`${type}\` frame`,
      payload: jsonSchema(option, io),
      examples: examples[type] ?? [],
    };
  });
}

function streamMessages(
  prefix: string,
  events: readonly { name: string; data: Schema; example: unknown }[],
  what: string,
): MessageSpec[] {
  return events.map(({ name, data, example }) => ({
    id: `${prefix}.${name}`,
    name,
    summary: `${what}: \`event: ${name}\`, its \`data\` this JSON`,
    payload: jsonSchema(data, "output"),
    examples: [example],
  }));
}

const refs = (channel: string, specs: MessageSpec[]) =>
  specs.map((s) => ({ $ref: `#/channels/${channel}/messages/${s.id}` }));

const channelMessages = (specs: MessageSpec[]) =>
  Object.fromEntries(specs.map((s) => [s.id, { $ref: `#/components/messages/${s.id}` }]));

const idParameter = { description: "the quote's (`q_…`) or limit order's (`lo_…`) id" };

/** The document without its servers, which depend on where it is served from. */
function baseDocument(): Document {
  const nodeMessages = frameMessages(nodeFrame, NODE_FRAME_EXAMPLES, "input", "node → relay");
  const relayMessages = frameMessages(relayFrame, RELAY_FRAME_EXAMPLES, "output", "relay → node");
  const quoteEvents = streamMessages("quote", QUOTE_STREAM_EVENTS, "A quote's stream");
  const limitEvents = streamMessages("limitOrder", LIMIT_ORDER_STREAM_EVENTS, "A limit order's stream");
  const all = [...nodeMessages, ...relayMessages, ...quoteEvents, ...limitEvents];
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Relay resolver protocol and event streams",
      version: "1.0.0",
      description:
        'The WebSocket a resolver node keeps per corridor (docs/resolver-protocol.md) and the Server-Sent Event streams of quotes and limit orders (docs/api.md, "Event streams"). Amounts are decimal strings in base units; times are unix milliseconds unless named `deadline` (unix seconds).',
    },
    defaultContentType: "application/json",
    channels: {
      resolverSocket: {
        address: "/v1/corridors/{chainId}/{tokenA}/{tokenB}/connect",
        title: "A corridor's resolver socket",
        description:
          'Upgrade: websocket. JSON text frames, each with a `type`. A `ping` is answered `pong` at any time, before auth too: the exact bytes `{"type":"ping"}` by the runtime without waking the corridor, any other spelling by the corridor.',
        servers: [{ $ref: "#/servers/socket" }],
        parameters: {
          chainId: { description: "the corridor's chain id" },
          tokenA: { description: "one token of the corridor: the node's base token" },
          tokenB: { description: "the other token: the node's quote token" },
        },
        messages: channelMessages([...nodeMessages, ...relayMessages]),
      },
      quoteEvents: {
        address: "/v1/quotes/{id}/events",
        title: "A quote's event stream",
        description: "text/event-stream: `id` the event's place from 1, `event` its name, `data` the JSON below.",
        servers: [{ $ref: "#/servers/http" }],
        parameters: { id: idParameter },
        messages: channelMessages(quoteEvents),
      },
      limitOrderEvents: {
        address: "/v1/limit-orders/{id}/events",
        title: "A limit order's event stream",
        description:
          "text/event-stream: `id` the event's place from 1, `event` the status taken, `data` the JSON below.",
        servers: [{ $ref: "#/servers/http" }],
        parameters: { id: idParameter },
        messages: channelMessages(limitEvents),
      },
    },
    operations: {
      receiveNodeFrames: {
        action: "receive",
        title: "Frames a node sends",
        channel: { $ref: "#/channels/resolverSocket" },
        messages: refs("resolverSocket", nodeMessages),
      },
      sendRelayFrames: {
        action: "send",
        title: "Frames the relay sends a node",
        channel: { $ref: "#/channels/resolverSocket" },
        messages: refs("resolverSocket", relayMessages),
      },
      sendQuoteEvents: {
        action: "send",
        title: "A quote's events",
        channel: { $ref: "#/channels/quoteEvents" },
        messages: refs("quoteEvents", quoteEvents),
      },
      sendLimitOrderEvents: {
        action: "send",
        title: "A limit order's events",
        channel: { $ref: "#/channels/limitOrderEvents" },
        messages: refs("limitOrderEvents", limitEvents),
      },
    },
    components: {
      schemas: Object.fromEntries(all.map((s) => [s.id, s.payload])),
      messages: Object.fromEntries(all.map((s) => [s.id, message(s)])),
    },
  };
}

let base: Document | undefined;

/** The document as served from `origin`: built once per isolate, its servers the origin it was asked from. */
export function asyncApiDocument(origin: string): Document {
  base ??= baseDocument();
  const url = new URL(origin);
  const secure = url.protocol === "https:";
  return {
    ...base,
    servers: {
      socket: { host: url.host, protocol: secure ? "wss" : "ws", description: "This relay's resolver sockets" },
      http: { host: url.host, protocol: secure ? "https" : "http", description: "This relay's event streams" },
    },
  };
}
