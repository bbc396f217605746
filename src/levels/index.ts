/**
 * Indicative prices (docs/api.md, "Indicative prices"; docs/resolver-protocol.md, "Price ladders"): the
 * ladders a corridor's nodes stream, the price answered from them, and whether a node's ladders are honest.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export type { CorridorPrices, LevelCount, PriceAsk } from "./corridor-prices";
export { corridorPricesOn } from "./corridor-prices-on";
export { honestLevels, type LevelsStanding, levelsSinceDay, levelsStanding } from "./honesty";
