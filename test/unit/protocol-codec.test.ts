import { describe, expect, it } from "vitest";
import { advertisedCorridor } from "../../src/nodes/connect-url";
import { close, parseNodeFrame, send } from "../../src/protocol/codec";

describe("parseNodeFrame", () => {
  it("parses a node frame", () => {
    expect(parseNodeFrame('{"type":"decline","rfqId":"rfq_1","reason":"paused"}')).toEqual({
      ok: true,
      frame: { type: "decline", rfqId: "rfq_1", reason: "paused" },
    });
  });

  it("keeps the rfqId of a malformed reply, so it can count as the node's rejected reply", () => {
    const parsed = parseNodeFrame('{"type":"bid","rfqId":"rfq_1","outputAmount":"12.5","signature":"0x00"}');
    expect(parsed).toEqual({
      ok: false,
      message: expect.stringContaining("outputAmount"),
      rfqId: "rfq_1",
      type: "bid",
    });
  });

  it.each([
    ["binary", new ArrayBuffer(2)],
    ["text that is not JSON", "{nope"],
    ["an unknown type", '{"type":"gossip","rfqId":"rfq_1"}'],
    ["a malformed heartbeat", '{"type":"heartbeat","rfqId":"rfq_1"}'],
  ])("refuses %s without an rfqId", (_what, message) => {
    expect(parseNodeFrame(message)).toMatchObject({ ok: false, rfqId: null });
  });
});

describe("send and close", () => {
  it("never throw on a socket that is closing", () => {
    const closing = {
      send: () => {
        throw new Error("closed");
      },
      close: () => {
        throw new Error("closed");
      },
    } as unknown as WebSocket;
    expect(() => send(closing, { type: "error", code: "x", message: "y" })).not.toThrow();
    expect(() => close(closing, 1000, "bye")).not.toThrow();
  });
});

describe("advertisedCorridor", () => {
  it("reads the token order a node advertised from its connect URL", () => {
    expect(advertisedCorridor("http://relay/v1/corridors/31337/0xAbC/0xdef/connect")).toEqual({
      chainId: 31337,
      baseToken: "0xAbC",
      quoteToken: "0xdef",
    });
    expect(advertisedCorridor("http://relay/v1/nodes")).toBeNull();
  });
});
