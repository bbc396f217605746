import type { ChainKind } from "../kind";
import { evmAdapter } from "./adapter";
import { evmAddressRules } from "./address";
import { fetcherWith } from "./call-batch";
import { type EvmChain, evmChainSchema } from "./config";
import { ETHER_DECIMALS, evmChainCosts } from "./costs";
import { readFeeBps } from "./fee-bps";
import { evmHead } from "./head";
import { evmInventoryReader } from "./inventory";
import { evmLimitOrders } from "./limit-orders";
import { type LimitChainReads, rpcLimitReads } from "./limit-reads";
import { evmBalance } from "./native-balance";
import { evmChainRecord } from "./record";
import { evmSettlement } from "./settler";

/** The EVM chain kind: its entry of the registry (src/chains/kinds.ts). */
export const evmKind = {
  configSchema: evmChainSchema,
  checkConfig: () => {},
  record: evmChainRecord,
  address: evmAddressRules,
  // Every pair of its tokens.
  pairs: ({ tokens }) =>
    tokens.flatMap((t, i) => tokens.slice(i + 1).map((u): [string, string] => [t.address, u.address])),
  nativeDecimals: ETHER_DECIMALS,
  adapter: evmAdapter,
  costs: (chain) => evmChainCosts(chain),
  settlement: evmSettlement,
  // ERC-20 balances and the executor's allowances.
  inventoryReader: (chain) => evmInventoryReader(chain),
  limitOrders: (chain, reads = rpcLimitReads) => evmLimitOrders(chain, reads(chain)),
  readHead: evmHead,
  readNativeBalance: evmBalance,
  // The FeeController's `feeBpsFor`, one batch.
  readContractFeeBps: (chain, signal) => readFeeBps(chain, signal ? fetcherWith(signal) : undefined),
} satisfies ChainKind<EvmChain, LimitChainReads>;
