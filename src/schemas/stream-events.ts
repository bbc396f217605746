import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { LimitOrder, LimitOrderStatus } from "./limit-order";
import { TimelineEntry, TimelineEventName } from "./quote";

/**
 * What the event streams carry (docs/api.md, "Event streams"): each event's name and its `data`, from
 * which the AsyncAPI document describes the two streams.
 */

const at = "2026-11-22T10:00:00.031Z";
const txHash = "0x8f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b";
const executionId = "x_5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a";

/** Each timeline event's `detail` (docs/api.md, "Quote"), for the streams' examples. */
const TIMELINE_DETAILS: Record<z.infer<typeof TimelineEventName>, Record<string, unknown> | null> = {
  requested: null,
  quoted: { latencyMs: 21 },
  signed: null,
  submitted: { txHash },
  requote: { reason: "insufficient_allowance", executionId },
  fallback: {
    reason: "resolver:insufficient_balance",
    faded: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    resolver: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    received: "949140",
  },
  failed: { reason: "transfer_failed", txHash },
  settled: { block: 18_204_331 },
  final: null,
  expired: null,
};

/** A quote's stream: each timeline entry under its own name, and `cancelled` for a cancelled quote. */
export const QUOTE_STREAM_EVENTS = [
  ...TimelineEventName.options.map((name) => ({
    name,
    data: TimelineEntry.extend({ event: z.literal(name) }),
    example: { at, event: name, detail: TIMELINE_DETAILS[name] } as unknown,
  })),
  {
    name: "cancelled",
    data: z.object({ at: Timestamp, status: z.literal("cancelled") }),
    example: { at, status: "cancelled" } as unknown,
  },
];

/** A limit order's stream: each status it took, with the record's changing fields after the move. */
export const LimitOrderStreamData = LimitOrder.pick({
  quoteId: true,
  attempts: true,
  lastError: true,
  lastCheckedAt: true,
  bestReceived: true,
  updatedAt: true,
}).extend({ at: Timestamp });

const FILLING_QUOTE = "q_7c9e1b3d5f7a9c0e2b4d6f8a1c3e5a7c";

export const LIMIT_ORDER_STREAM_EVENTS = LimitOrderStatus.options.map((name) => ({
  name,
  data: LimitOrderStreamData.extend({ status: z.literal(name) }),
  example: {
    at,
    status: name,
    quoteId: name === "filling" || name === "filled" ? FILLING_QUOTE : null,
    attempts: name === "open" ? 0 : 3,
    lastError: null,
    lastCheckedAt: name === "open" ? null : at,
    bestReceived: name === "open" ? null : "99810000",
    updatedAt: at,
  } as unknown,
}));
