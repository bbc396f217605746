/**
 * Request and record shapes (zod; docs/api.md): the OpenAPI document is generated from them and every
 * record type is their `z.infer`.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { ArchiveBody, ArchiveResult } from "./archive";
export { errorResponses, jsonContent } from "./common";
export { Config } from "./config";
export { type Erc2612Permit, ExecutionAnswer, ExecutionRequest, MAX_IDEMPOTENCY_KEY_LENGTH } from "./execution";
export {
  CancelLimitOrderRequest,
  type LimitCheck,
  LimitListQuery,
  LimitOrder,
  LimitOrderDraft,
  LimitOrderPage,
  LimitOrderPlaceRequest,
  LimitOrderPrepareRequest,
  type LimitOrderRow,
  type LimitOrderStatus,
  type MovedLimitOrder,
  type OpenLimitOrder,
  type PagePosition,
} from "./limit-order";
export { ApiKey, ApiKeyBody, ApiKeyIdParam, type ApiKeyQuotas, IssuedApiKey, Limits } from "./limits";
export { CorridorRecord, type CorridorState, Health, KeeperRecord, type Pause, PauseBody } from "./ops";
export { IndicativeLadder, IndicativePrice, PriceQuery } from "./prices";
export {
  type Band,
  Execution,
  type ExecutionStatus,
  type Fill,
  IdParam,
  legsOf,
  type Offer,
  Quote,
  type QuoteLeg,
  QuoteListQuery,
  QuotePage,
  type QuoteStatus,
  type QuoteSummary,
  type Replies,
  type Settlement,
  type Steering,
  TAKER_SIGNING_FIELDS,
  TakerSigning,
  type TimelineEntry,
} from "./quote";
export { CancelQuoteRequest, QuoteRequest } from "./quote-request";
export { Rates } from "./rates";
export {
  type AdvertisedCorridor,
  Badge,
  DemoteBody,
  EvmAddressParam,
  Node,
  RegistrationBody,
  type ReliabilityDetail,
  Resolver,
  ResolverListQuery,
  ResolverPage,
  ResolverStanding,
} from "./resolvers";
export { LIMIT_ORDER_STREAM_EVENTS, QUOTE_STREAM_EVENTS } from "./stream-events";
