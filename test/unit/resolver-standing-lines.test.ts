import { describe, expect, it } from "vitest";
import { standingLines } from "../../src/clients/resolver/standing";
import type { ResolverStanding } from "../../src/schemas/resolvers";

describe("the reference resolver's print of its record when demoted", () => {
  it("says until when and why, the rates, and each strike and failure not counted", () => {
    const standing = {
      demoted: true,
      demotedUntil: "2026-11-25T03:15:00.000Z",
      demotionReason: "strike 1: transaction resolver:transfer_failed; demoted 15 min",
      reliabilityDetail: {
        response: { rate: 0.5, samples: 40 },
        fill: { rate: null, samples: 0 },
        uptime: { rate: 1, samples: 30 },
      },
      replyLatency: { p50Ms: 50, p99Ms: 400 },
      strikes: [
        {
          at: "2026-11-25T03:00:00.000Z",
          event: "x_1",
          quoteId: "q_1",
          reason: "transaction resolver:transfer_failed",
          blame: "resolver",
          demotedUntil: "2026-11-25T03:15:00.000Z",
        },
      ],
      notCounted: [
        {
          at: "2026-11-25T02:00:00.000Z",
          executionId: "x_0",
          quoteId: "q_0",
          status: "failed",
          reason: "taker:nonce_used",
          blame: "taker",
        },
      ],
    } as unknown as ResolverStanding;
    expect(standingLines(standing)).toEqual([
      "demoted until 2026-11-25T03:15:00.000Z: strike 1: transaction resolver:transfer_failed; demoted 15 min",
      "last 7 days: response 50.0 %, fill n/a, replies p50 ≤ 50 ms, p99 ≤ 400 ms",
      "strikes (1 listed, counted against this resolver):",
      "  2026-11-25T03:00:00.000Z transaction resolver:transfer_failed (q_1)",
      "failures that were not this resolver's (1 listed, never counted):",
      "  2026-11-25T02:00:00.000Z taker:nonce_used (q_0)",
    ]);
  });
});
