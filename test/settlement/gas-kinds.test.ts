import { env } from "cloudflare:test";
import { toHex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { EvmChain } from "../../src/config/schema";
import { corridorCostsOn } from "../../src/costs";
import {
  chainClient,
  cngnPermit,
  EVM,
  fundedResolver,
  getQuote,
  newTaker,
  runIndexer,
  seedQuote,
  signQuote,
  submit,
  testClient,
} from "./helpers";

/**
 * Each kind of fill priced from what the chain's settled fills of that kind used (docs/settlement.md, "The
 * gas of each kind of fill"): a plain fill and one carrying the taker's EIP-2612 permit settle on anvil,
 * the indexer records each one's gas by kind, and a corridor's costs over the real D1 and the real chain
 * reader then charge a taker without Permit2's allowance at least what the permit fill used.
 */

const chain: EvmChain = { ...primaryEvmChain(localConfig), rpcUrl: env.TEST_CHAIN_RPC_URL };
const GWEI = 1_000_000_000n;
const RATE = 3_000;
const SELL = 1_580_000_000n;

/** The next block's base fee, then a block mined with it. */
async function baseFee(wei: bigint): Promise<void> {
  await testClient.request({ method: "anvil_setNextBlockBaseFeePerGas" as never, params: [toHex(wei)] as never });
  await testClient.mine({ blocks: 1 });
}

/** Seeds a quote for `taker`, submits it (with `permit` when given), indexes it; the gas it used. */
async function settledGas(taker: Awaited<ReturnType<typeof newTaker>>, withPermit: boolean): Promise<bigint> {
  const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(2) });
  const signature = await signQuote(taker, typedData);
  const permit = withPermit ? await cngnPermit(taker) : undefined;
  const res = await submit({ quoteId, signature, ...(permit ? { permit } : {}) });
  expect(res.status).toBe(202);
  await runIndexer();
  const quote = await getQuote(quoteId);
  expect(quote.status).toBe("settled");
  return BigInt(quote.executions[0]?.gasUsed ?? "0");
}

/** USDC base units of `units` gas at `price` wei, at `RATE` USDC per ETH, rounded down: what the gas cost. */
const usdcOf = (units: bigint, price: bigint) => (units * price * BigInt(RATE) * 10n ** 6n) / 10n ** 18n;

afterAll(async () => {
  await baseFee(GWEI);
});

describe("the gas fee of each kind of fill, from what fills of that kind used on anvil", () => {
  it("charges a taker whose fill carries a permit at least the gas a permit fill used", async () => {
    const plainGas = await settledGas(await newTaker(), false);
    const permitGas = await settledGas(await newTaker({ approvePermit2: false }), true);
    // The permit's call on the token costs gas of its own.
    expect(permitGas).toBeGreaterThan(plainGas);

    await baseFee(10n * GWEI);
    const tip = (await chainClient.estimateMaxPriorityFeePerGas()) as bigint;
    const gasPrice = 2n * 10n * GWEI + tip;
    const pending: Promise<unknown>[] = [];
    const costs = corridorCostsOn(chain, {
      db: env.DB,
      readRates: async () => ({ tokens: [{ token: EVM.usdc, rate: RATE, at: Date.now() }] }),
      waitUntil: (p) => pending.push(p),
    });
    const now = Date.now();
    await costs.keepFresh(now);

    const charge = async (taker: string) => {
      const payer = { taker, paysBeforeGas: SELL };
      const fill = { kind: "rfq" as const, sellToken: EVM.cngn, buyToken: EVM.usdc, recipient: taker, payer };
      const charged = await costs.charge(fill, now);
      expect(charged.source).toBe("priced");
      return charged.amount;
    };
    const unapproved = await newTaker({ approvePermit2: false });
    const approved = await newTaker();
    // Neither taker's allowance is known yet: each is charged as if its fill carried a permit.
    expect(await charge(unapproved.address)).toBeGreaterThanOrEqual(usdcOf(permitGas, gasPrice));
    expect(await charge(approved.address)).toBeGreaterThanOrEqual(usdcOf(permitGas, gasPrice));
    await Promise.all(pending);
    // Once read: the taker without an allowance sends a permit, the other a plain fill.
    expect(await charge(unapproved.address)).toBeGreaterThanOrEqual(usdcOf(permitGas, gasPrice));
    const plainCharge = await charge(approved.address);
    expect(plainCharge).toBeGreaterThanOrEqual(usdcOf(plainGas, gasPrice));
    expect(plainCharge).toBeLessThan(usdcOf(permitGas, gasPrice));
  });
});
