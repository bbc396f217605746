import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameSize, parseNodeFrame } from "../../src/protocol/codec";

/** Frames as a hostile node might send them: any JSON, near-miss node frames, any text, any bytes. */
const nearMiss = fc.record(
  {
    type: fc.constantFrom("auth", "heartbeat", "bid", "decline", "signed", "ping", "", "BID"),
    rfqId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    outputAmount: fc.oneof(fc.string(), fc.bigInt().map(String), fc.double()),
    signature: fc.string(),
    state: fc.constantFrom("quoting", "degraded", "paused", "dancing"),
    inventory: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    address: fc.string(),
    name: fc.string({ maxLength: 80 }),
    version: fc.string(),
    expiresAt: fc.oneof(fc.integer(), fc.string()),
  },
  { requiredKeys: [] },
);

const message = fc.oneof(
  nearMiss.map((f) => JSON.stringify(f)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: "binary" }),
  fc.uint8Array({ maxLength: 64 }).map((b) => b.buffer as ArrayBuffer),
);

describe("fuzzing the resolver frame decoder", () => {
  it("never throws: a frame parses, or says why not, naming the rfq only of a reply", () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(frameSize(m)).toBeGreaterThanOrEqual(0);
        const parsed = parseNodeFrame(m);
        if (parsed.ok) {
          expect(["auth", "heartbeat", "bid", "decline", "signed"]).toContain(parsed.frame.type);
        } else {
          expect(typeof parsed.message).toBe("string");
          expect(parsed.rfqId === null || typeof parsed.rfqId === "string").toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
