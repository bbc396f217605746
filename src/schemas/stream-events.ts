import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { LimitOrderRecord, LimitOrderStatus } from "./limit-order";
import { TimelineEntry, TimelineEventName } from "./quote";

/**
 * What the event streams carry (docs/api.md, "Event streams"): each event's name and its `data`, from
 * which the AsyncAPI document describes the two streams.
 */

/** A quote's stream: each timeline entry under its own name, and `cancelled` for a cancelled quote. */
export const QUOTE_STREAM_EVENTS = [
  ...TimelineEventName.options.map((name) => ({ name, data: TimelineEntry.extend({ event: z.literal(name) }) })),
  { name: "cancelled", data: z.object({ at: Timestamp, status: z.literal("cancelled") }) },
] as const;

/** A limit order's stream: each status it took, with the record's changing fields after the move. */
export const LimitOrderStreamData = LimitOrderRecord.pick({
  quoteId: true,
  attempts: true,
  lastError: true,
  lastCheckedAt: true,
  bestReceived: true,
  updatedAt: true,
}).extend({ at: Timestamp });

export const LIMIT_ORDER_STREAM_EVENTS = LimitOrderStatus.options.map((name) => ({
  name,
  data: LimitOrderStreamData.extend({ status: z.literal(name) }),
}));
