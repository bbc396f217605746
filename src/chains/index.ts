/**
 * The chains (docs/architecture.md, "Where each fact lives"): the chain kinds' registry, the factories
 * that make each port of a chain from its kind's entry, the ports themselves, corridor keys and the
 * address rules of each kind.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export {
  type ChainAdapter,
  keptForSettlement,
  minReceivedOf,
  type ProvedKeys,
  type QuoteSigning,
  type RfqTerms,
  type WinnerLeg,
} from "./adapter";
export { addressKey, canonicalAddress, normaliseAddress, quotesPair } from "./addresses";
export { bps } from "./config-shapes";
export {
  allCorridors,
  type Corridor,
  chainsOfId,
  corridorKey,
  corridorOfKey,
  corridorsOfQuoteId,
  corridorTag,
  findCorridor,
} from "./corridor-keys";
export type { ChainCosts, FillToPrice } from "./costs";
export type { EvmChain } from "./evm/config";
export { recoverMessageSigner } from "./evm/messages";
export { withBigintsAsStrings } from "./evm/typed-data";
export { adapterFor, costsFor, inventoryReaderFor, limitOrdersFor, settlerFor } from "./factories";
export { type FeeCharge, feeChargeFor, type GasCharge, gasChargeFor } from "./fee-charge";
export { type ChainHead, readHead } from "./head";
export type { InventoryRead, InventoryReader } from "./inventory";
export { KeptInput } from "./kept-input";
export type { ChainKind } from "./kind";
export {
  CHAIN_KINDS,
  type ChainConfig,
  type ChainKindName,
  chainRecord,
  chainSchema,
  firstPrimaryChain,
  kindOf,
  primaryChainRecord,
} from "./kinds";
export type { LimitOrderChain, LimitOrderChains, SignedLimitTerms, TakerSide } from "./limit-orders";
export { readNativeBalance } from "./native-balance";
export type { NonceFiller, NonceStore } from "./nonce-store";
export { readContractFeeBps, type TokenFeeBps } from "./protocol-fee";
export {
  type BroadcastResult,
  type ChainSettler,
  ChainUnavailableError,
  type FillCall,
  type FillingBid,
  type FillRequest,
  type PreparedFill,
  type SettlementScheme,
  type SignedFill,
  type TxReceipt,
  type TxStatus,
} from "./settler";
export type { SolanaChain } from "./solana/config";
export { verifyEd25519Text } from "./solana/ed25519";
