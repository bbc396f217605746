/**
 * Event streams (docs/api.md, "Event streams"): a corridor's streams, their subjects and notifications.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export {
  announceCancelled,
  announceLimitOrders,
  announceQuote,
  announceQuotes,
  QuoteAnnouncements,
  type QuoteChange,
  type QuoteMove,
} from "./announce";
export { CorridorStreams } from "./corridor-streams";
export { lastEventId } from "./events";
export { STREAM_LIMITS } from "./hub";
export { StreamWakeups } from "./stream-wakeups";
export { limitOrderTopic, quoteTopic, streamAsked, streamRequest } from "./subjects";
