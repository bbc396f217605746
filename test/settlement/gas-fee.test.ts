import { env } from "cloudflare:test";
import { type Hex, toHex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { evmChainCosts } from "../../src/chains/evm/costs";
import { gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { EvmChain } from "../../src/config/schema";
import { CorridorCosts } from "../../src/costs/corridor-costs";
import { chainClient, deployer, EVM, testClient } from "./helpers";

/**
 * The priced gas fee against anvil (docs/api.md, "The gas fee"): the chain's inputs read by the real
 * reader, converted at a native price as the oracle would give it.
 */

const chain: EvmChain = { ...primaryEvmChain(localConfig), rpcUrl: env.TEST_CHAIN_RPC_URL };
const GWEI = 1_000_000_000n;

/** The next block's base fee, then a block mined with it. */
async function baseFee(wei: bigint): Promise<void> {
  await testClient.request({ method: "anvil_setNextBlockBaseFeePerGas" as never, params: [toHex(wei)] as never });
  await testClient.mine({ blocks: 1 });
}

/** A corridor's costs over the real reader, at `rate` USDC per ETH read at `ratesAt`. */
function costsAt(rate: number, ratesAt: () => number) {
  const reader = evmChainCosts(chain);
  const costs = new CorridorCosts({
    costs: reader,
    // No permit surcharge: a fill whose taker is not known is priced as the plain one here.
    seedUnits: { rfq: 180_000n, limit: 220_000n, permit: 0n },
    readUnits: async () => null,
    readRates: async () => ({ tokens: [{ token: EVM.usdc, rate, at: ratesAt() }] }),
    fallbackCharge: (sell, buy) => gasChargeFor(chain.gasFee, sell, buy, (a, b) => a.toLowerCase() === b.toLowerCase()),
    configuredFeeBps: chain.fee.bps,
    tokenDecimals: () => 6,
    sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
    waitUntil: () => {},
  });
  return { reader, costs };
}

const fill = { kind: "rfq" as const, sellToken: EVM.cngn, buyToken: EVM.usdc, recipient: EVM.executor };

afterAll(async () => {
  await baseFee(GWEI);
});

describe("the gas fee priced from anvil", () => {
  it("follows the base fee: ten times the base fee, about ten times the fee, within a block", async () => {
    await baseFee(10n * GWEI);
    let now = Date.now();
    const { costs } = costsAt(3000, () => now);
    await costs.keepFresh(now);
    const low = await costs.charge(fill, now);
    expect(low.source).toBe("priced");
    const tip = (await chainClient.estimateMaxPriorityFeePerGas()) as bigint;
    // 180,000 gas × (2 × 10 gwei + the tip) at 3,000 USDC per ETH, rounded up.
    const wei = 180_000n * (2n * 10n * GWEI + tip);
    expect(low.amount).toBe((wei * 3000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n);

    await baseFee(100n * GWEI);
    now += 5_000;
    await costs.keepFresh(now);
    const high = await costs.charge(fill, now);
    expect(high.source).toBe("priced");
    const ratio = Number(high.amount) / Number(low.amount);
    expect(ratio).toBeGreaterThan(9);
    expect(ratio).toBeLessThanOrEqual(10);
  });

  it("falls back to gasFee.fixed when the native price is over 60 s old, and says so", async () => {
    const now = Date.now();
    const { costs } = costsAt(3000, () => now - 61_000);
    await costs.keepFresh(now);
    expect(await costs.charge(fill, now)).toMatchObject({ amount: BigInt(chain.gasFee.fixed), source: "fallback" });
  });

  it("reads the FeeController's bps, so a fee its owner changes is used by the next quotes", async () => {
    let now = Date.now();
    const { costs } = costsAt(3000, () => now);
    await costs.keepFresh(now);
    expect(costs.feeBps(EVM.usdc)).toBe(chain.fee.bps);
    const set = (functionName: "setTokenFeeBps" | "clearTokenFeeBps", args: readonly unknown[]) =>
      deployer
        .writeContract({ address: chain.feeController as Hex, abi: feeControllerAbi, functionName, args } as never)
        .then((hash) => chainClient.waitForTransactionReceipt({ hash }));
    await set("setTokenFeeBps", [EVM.usdc, 25]);
    try {
      now += 5_000;
      await costs.keepFresh(now);
      expect(costs.feeBps(EVM.usdc)).toBe(25);
    } finally {
      await set("clearTokenFeeBps", [EVM.usdc]);
    }
  });
});
