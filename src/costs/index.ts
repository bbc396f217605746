/**
 * What a fill costs (docs/api.md, "The gas fee"): a corridor's gas-fee inputs kept fresh, and the
 * conversions the keeper's books share with pricing.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { type CorridorCosts, corridorCostsOn, type GasFeeAsk } from "./corridor-costs";
export { type GasFeeSource, medianOf, tokenToNative } from "./gas-fee";
