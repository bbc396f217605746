/**
 * Resolver standing (docs/reliability.md): reliability, uptime, strikes and demotion, the directory, the
 * standing a corridor reads ahead.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { CorridorStanding } from "./corridor-standing";
export { buildDirectory } from "./directory";
export { directoryPage } from "./directory-page";
export { isResolversOwn, strikeIfOwn } from "./own-failure";
export { type AuctionCounts, auctionDayCounts, windowStart } from "./reliability";
export type { Standing } from "./standing";
export { standingRecord } from "./standing-record";
export type { Demotion } from "./strike-policy";
export { heal, strike } from "./strikes";
export { accrue, startUptime, type Uptime } from "./uptime";
