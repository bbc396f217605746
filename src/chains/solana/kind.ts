import type { ChainKind } from "../kind";
import { solanaAdapter } from "./adapter";
import { solanaAddressRules } from "./address";
import { checkSolanaChain, type SolanaChain, solanaChainSchema } from "./config";
import { SOL_DECIMALS, solanaChainCosts } from "./costs";
import { solanaHead } from "./head";
import { solanaInventoryReader } from "./inventory";
import { solanaBalance } from "./native-balance";
import { solanaChainRecord } from "./record";
import { solanaSettlement } from "./settler";

/** The Solana chain kind: its entry of the registry (src/chains/kinds.ts). */
export const solanaKind = {
  configSchema: solanaChainSchema,
  checkConfig: checkSolanaChain,
  record: solanaChainRecord,
  address: solanaAddressRules,
  // The configured pairs.
  pairs: ({ pairs }) => (pairs ?? []).flatMap(([a, b]) => (a && b ? [[a, b] as [string, string]] : [])),
  nativeDecimals: SOL_DECIMALS,
  adapter: solanaAdapter,
  costs: solanaChainCosts,
  settlement: solanaSettlement,
  // The SPL balances of the node's proved Solana key.
  inventoryReader: solanaInventoryReader,
  // Limit orders exist on EVM chains only (docs/limit-orders.md).
  limitOrders: null,
  readHead: solanaHead,
  readNativeBalance: solanaBalance,
  // The swap carries the relay's `fee.bps`; the program keeps none.
  readContractFeeBps: null,
} satisfies ChainKind<SolanaChain>;
