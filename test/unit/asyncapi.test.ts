import { Parser } from "@asyncapi/parser";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { NODE_FRAME_EXAMPLES, RELAY_FRAME_EXAMPLES } from "../../src/protocol/frame-examples";
import { nodeFrame } from "../../src/protocol/node-frames";
import { relayFrame } from "../../src/protocol/relay-frames";
import { LIMIT_ORDER_STREAM_EVENTS, QUOTE_STREAM_EVENTS } from "../../src/schemas/stream-events";

/**
 * `GET /v1/asyncapi.json` (docs/resolver-protocol.md, "The AsyncAPI document") is a valid AsyncAPI 3.0
 * document as the reference parser reads it, and names every frame of the protocol's two unions.
 */

const ERROR = 0;

async function served(origin = "http://127.0.0.1:8787"): Promise<Record<string, unknown>> {
  const res = await createApp().request(`${origin}/v1/asyncapi.json`, {}, { RELAY_CONFIG: "" });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const typesOf = (union: { options: readonly { shape: { type: { value: string } } }[] }) =>
  union.options.map((o) => o.shape.type.value);

describe("GET /v1/asyncapi.json", () => {
  it("parses with @asyncapi/parser with no error", async () => {
    const doc = await served();
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    const errors = diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join(".")}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(document?.version()).toBe("3.0.0");
  }, 60_000);

  it("has a message, with an example, for every frame of both unions, in the operation of its direction", async () => {
    const doc = await served();
    const { document } = await new Parser().parse(JSON.stringify(doc));
    if (!document) throw new Error("the document did not parse");
    const messagesOf = (operationId: string) => {
      const operation = document.operations().get(operationId);
      if (!operation) throw new Error(`no operation ${operationId}`);
      return operation.messages().all();
    };
    const check = (operationId: string, union: Parameters<typeof typesOf>[0]) => {
      const messages = messagesOf(operationId);
      const byName = new Map(messages.map((m) => [m.name(), m]));
      for (const type of typesOf(union)) {
        const m = byName.get(type);
        expect(m, `no message for the ${type} frame in ${operationId}`).toBeDefined();
        expect(m?.payload()?.properties()?.type?.const()).toBe(type);
        const examples = m?.examples().all() ?? [];
        expect(examples.length, `no example of the ${type} frame`).toBeGreaterThan(0);
      }
      expect(messages.length).toBe(union.options.length);
    };
    check("receiveNodeFrames", nodeFrame);
    check("sendRelayFrames", relayFrame);
  }, 60_000);

  it("serves the quote and limit-order event streams as channels", async () => {
    const doc = (await served("https://relay.example")) as {
      channels: Record<string, { address: string; messages: Record<string, unknown> }>;
      servers: Record<string, { host: string; protocol: string }>;
    };
    expect(doc.channels.quoteEvents?.address).toBe("/v1/quotes/{id}/events");
    expect(Object.keys(doc.channels.quoteEvents?.messages ?? {})).toContain("quote.final");
    expect(doc.channels.limitOrderEvents?.address).toBe("/v1/limit-orders/{id}/events");
    expect(Object.keys(doc.channels.limitOrderEvents?.messages ?? {})).toContain("limitOrder.filled");
    expect(doc.servers.socket).toMatchObject({ host: "relay.example", protocol: "wss" });
  });
});

describe("frame examples", () => {
  it("each is a frame its union parses, unchanged", () => {
    for (const [union, examples] of [
      [nodeFrame, NODE_FRAME_EXAMPLES],
      [relayFrame, RELAY_FRAME_EXAMPLES],
    ] as const) {
      for (const example of Object.values(examples).flat()) {
        expect(union.parse(example)).toEqual(example);
      }
    }
  });

  it("each stream event's example is its data, as its schema reads it", () => {
    for (const { name, data, example } of [...QUOTE_STREAM_EVENTS, ...LIMIT_ORDER_STREAM_EVENTS]) {
      expect(data.parse(example), name).toEqual(example);
    }
  });
});
