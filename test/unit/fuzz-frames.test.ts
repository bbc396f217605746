import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LadderBook } from "../../src/levels/ladder-book";
import { frameSize, parseNodeFrame } from "../../src/protocol/codec";

const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** Base-unit amounts and near misses: decimals, signs, exponents, numbers, huge values. */
const amountText = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.constantFrom("0", "-1", "1.5", "1e6", "", " 1", "01"),
  fc.double().map(String),
  fc.integer(),
);

/** Frames as a hostile node might send them: any JSON, near-miss node frames, any text, any bytes. */
const nearMiss = fc.record(
  {
    type: fc.constantFrom("auth", "heartbeat", "bid", "decline", "signed", "levels", "ping", "pong", "", "BID"),
    rfqId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    outputAmount: fc.oneof(fc.string(), fc.bigInt().map(String), fc.double()),
    signature: fc.string(),
    state: fc.constantFrom("quoting", "degraded", "paused", "dancing"),
    inventory: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    address: fc.string(),
    name: fc.string({ maxLength: 80 }),
    version: fc.string(),
    expiresAt: fc.oneof(fc.integer(), fc.string()),
    chainId: fc.oneof(fc.constant(31337), fc.integer(), fc.string()),
    sellToken: fc.oneof(fc.constant(CNGN), fc.constant(USDC), fc.string()),
    buyToken: fc.oneof(fc.constant(CNGN), fc.constant(USDC), fc.string()),
    levels: fc.array(fc.record({ sellAmount: amountText, outputAmount: amountText }, { requiredKeys: [] }), {
      maxLength: 24,
    }),
    ttlMs: fc.oneof(fc.integer(), fc.double(), fc.string()),
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
          expect(["ping", "auth", "heartbeat", "bid", "decline", "signed", "levels"]).toContain(parsed.frame.type);
        } else {
          expect(typeof parsed.message).toBe("string");
          expect(parsed.rfqId === null || typeof parsed.rfqId === "string").toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("fuzzing levels frames into a corridor's ladder book", () => {
  it("stores only ladders it accepts, each sorted with a rate never better for more by a base unit of rounding; refuses the rest with a code", () => {
    const sameToken = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const ladderMessage = nearMiss.map((f) => JSON.stringify({ ...f, type: "levels" }));
    fc.assert(
      fc.property(fc.array(ladderMessage, { maxLength: 6 }), (messages) => {
        const book = new LadderBook({ chainId: 31337, tokens: [CNGN.toLowerCase(), USDC.toLowerCase()], sameToken });
        let now = 1_000_000;
        for (const m of messages) {
          now += 300;
          const parsed = parseNodeFrame(m);
          if (!parsed.ok || parsed.frame.type !== "levels") continue;
          const refused = book.receive("0xAbc", parsed.frame, now);
          if (refused) expect(refused.code).toMatch(/^(bad_levels|levels_[a-z_]+)$/);
        }
        for (const [sell, buy] of [
          [CNGN, USDC],
          [USDC, CNGN],
        ] as const) {
          for (const ladder of book.fresh(sell, buy, now)) {
            expect(ladder.rungs.length).toBeGreaterThan(0);
            expect(ladder.rungs.length).toBeLessThanOrEqual(20);
            ladder.rungs.forEach((r, i) => {
              const prev = ladder.rungs[i - 1];
              expect(r.sellAmount > 0n && r.outputAmount > 0n).toBe(true);
              if (prev) {
                expect(r.sellAmount > prev.sellAmount).toBe(true);
                expect(r.outputAmount * prev.sellAmount < (prev.outputAmount + 1n) * r.sellAmount).toBe(true);
              }
            });
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
