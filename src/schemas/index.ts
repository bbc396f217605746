/**
 * Request and record shapes (zod; docs/api.md): the OpenAPI document is generated from them and every
 * record type is their `z.infer`.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { errorResponses, jsonContent } from "./common";
export { ConfigRecord } from "./config";
export { type Erc2612Permit, ExecutionAccepted, ExecutionRequest, MAX_IDEMPOTENCY_KEY_LENGTH } from "./execution";
export {
  LimitCancelRequest,
  type LimitCheck,
  LimitListQuery,
  LimitOrderDraft,
  LimitOrderPage,
  LimitOrderRecord,
  type LimitOrderRow,
  type LimitOrderStatus,
  LimitPlaceRequest,
  LimitPrepareRequest,
  type MovedLimitOrder,
  type OpenLimitOrder,
  type PagePosition,
} from "./limit-order";
export { ApiKeyBody, ApiKeyIdParam, type ApiKeyQuotas, ApiKeyRecord, IssuedApiKey, Limits } from "./limits";
export { CorridorRecord, type CorridorState, HealthRecord, KeeperRecord, PauseBody, type PauseRecord } from "./ops";
export { IndicativeLadder, IndicativePrice, PriceQuery } from "./prices";
export {
  type Band,
  ExecutionRecord,
  type ExecutionStatus,
  type Fill,
  IdParam,
  type Offer,
  QuoteListQuery,
  QuotePage,
  QuoteRecord,
  type QuoteStatus,
  type QuoteSummary,
  type Replies,
  type Settlement,
  type Steering,
  type TimelineEntry,
} from "./quote";
export { CancelRequest, QuoteRequest } from "./quote-request";
export { Rates } from "./rates";
export {
  type AdvertisedCorridor,
  Badge,
  DemoteBody,
  EvmAddressParam,
  NodeRecord,
  RegistrationBody,
  type ReliabilityDetail,
  ResolverListQuery,
  ResolverPage,
  ResolverRecord,
  ResolverStanding,
} from "./resolvers";
