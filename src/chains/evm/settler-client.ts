import { createPublicClient, http } from "viem";
import type { EvmChain } from "../../config";
import { settlerLog } from "../settler";
import { FeeCache } from "./fee-cache";
import { isTransportError, rpc, shortMessage } from "./rpc";

/** How long one RPC call may take before the chain counts as unavailable. */
const RPC_TIMEOUT_MS = 8_000;
/** Fee data older than this is read again in the background when a submission comes (docs/settlement.md). */
const FEE_REFRESH_MS = 2_000;
/** Fee data older than this is waited for before signing: a keeper idle for a while reads afresh. */
const FEE_MAX_AGE_MS = 15_000;

/** What a transaction pays for gas: EIP-1559 fees, or a gas price on a chain without them. */
export type GasPricing = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

const evmClient = (chain: EvmChain) =>
  createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS }) });

export type EvmClient = ReturnType<typeof evmClient>;

/** What the wallets of one chain share: the RPC client, and the chain's fee data kept fresh. */
export interface ChainShared {
  client: EvmClient;
  fees: FeeCache<GasPricing>;
}

export function chainShared(chain: EvmChain): ChainShared {
  const client = evmClient(chain);
  const read = (): Promise<GasPricing> =>
    rpc("reading the chain's fees", async () => {
      try {
        const fees = await client.estimateFeesPerGas();
        return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
      } catch (e) {
        if (isTransportError(e)) throw e;
        // A chain without EIP-1559 blocks.
        return { gasPrice: await client.getGasPrice() };
      }
    });
  const fees = new FeeCache(read, Date.now, { refreshMs: FEE_REFRESH_MS, maxAgeMs: FEE_MAX_AGE_MS }, (e) =>
    settlerLog("fee_refresh_failed", { chainId: chain.chainId, error: shortMessage(e) }),
  );
  return { client, fees };
}
