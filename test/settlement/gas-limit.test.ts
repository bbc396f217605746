import { env } from "cloudflare:test";
import { type LocalAccount, parseTransaction } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { evmSettlement } from "../../src/chains/evm/settler";
import type { FillRequest } from "../../src/chains/settler";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { EvmChain } from "../../src/config/schema";
import { fillRequestOf } from "../../src/keeper/admission";
import { KEEPER_KEY } from "./accounts";
import { noNonces, recordBatches } from "./chain-calls";
import { approve, chainClient, EVM, fundedResolver, newResolver, newTaker, seedQuote, signQuote } from "./helpers";

/**
 * A fill's gas limit (docs/settlement.md, "Gas") against anvil: one `eth_call` at twice the kind's
 * configured gas simulates the fill and shows it fits, with no `eth_estimateGas`; a fill that needs more
 * than that is estimated in a second batch; a revert with a reason is answered from the first.
 */

const base: EvmChain = { ...primaryEvmChain(localConfig), rpcUrl: env.TEST_CHAIN_RPC_URL };

/**
 * The keeper's wallet (the only one the executor lets fill) on a chain with `rfqUnits`; it simulates and
 * signs here, and broadcasts nothing, so the keeper object's nonces are left alone.
 */
function settlerWith(rfqUnits: number) {
  const chain = { ...base, gasFee: { ...base.gasFee, units: { ...base.gasFee.units, rfq: rfqUnits } } };
  const [settler] = evmSettlement(chain).withKeys(KEEPER_KEY, noNonces) ?? [];
  if (!settler) throw new Error("no settler");
  return settler;
}

/** A quote won by a funded resolver, signed by a funded taker, as the keeper's admission hands it on. */
async function signedFill(resolver: LocalAccount = fundedResolver(2)): Promise<FillRequest> {
  const taker = await newTaker();
  const { quote, typedData } = await seedQuote({ taker: taker.address, resolver });
  return fillRequestOf(quote, await signQuote(taker, typedData), null);
}

afterEach(() => {
  vi.restoreAllMocks();
});

const now = () => Math.floor(Date.now() / 1000);

describe('a fill\'s gas limit (docs/settlement.md, "Gas")', () => {
  it("simulates at twice the kind's gas in one batch, without eth_estimateGas, and signs with that limit", async () => {
    const settler = settlerWith(195_000);
    const request = await signedFill();
    const batches = recordBatches();
    const checks = settler.preflight(request, now());
    const prepared = await checks.fill;
    expect(prepared).toMatchObject({ kind: "prepared", fill: { gas: 390_000n } });
    // The taker's signature is judged from the same batch: its code (none) and its isValidSignature call
    // ride beside the taker's side and the simulation, no round trip of their own.
    expect(await checks.taker).toEqual({ ok: true });
    expect(batches).toEqual([["eth_call", "eth_call", "eth_call", "eth_call", "eth_getCode", "eth_call"]]);
    if (prepared.kind !== "prepared") return;
    const signed = await settler.sign(request, prepared.fill, () => {});
    expect(parseTransaction(signed.raw as `0x${string}`).gas).toBe(390_000n);
  });

  it("estimates a fill that needs more gas than its limit, in a second batch, and adds a fifth", async () => {
    const settler = settlerWith(21_000);
    const request = await signedFill();
    const batches = recordBatches();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const prepared = await settler.preflight(request, now()).fill;
    // The operator hears that the configured units are below what fills use.
    expect(JSON.stringify(errors.mock.calls)).toContain("fill_over_gas_limit");
    expect(batches).toEqual([
      ["eth_call", "eth_call", "eth_call", "eth_call", "eth_getCode", "eth_call"],
      ["eth_call", "eth_estimateGas"],
    ]);
    if (prepared.kind !== "prepared") throw new Error(`not prepared: ${JSON.stringify(prepared)}`);
    const { gas, call } = prepared.fill;
    const estimate = await chainClient.estimateGas({
      account: settler.keeper as `0x${string}`,
      to: call.to as `0x${string}`,
      data: call.data as `0x${string}`,
    });
    expect(gas).toBe(estimate + estimate / 5n);
    // The limit it is signed with carries the fill; the kind's limit did not.
    const from = settler.keeper as `0x${string}`;
    const at = (limit: bigint) =>
      chainClient.call({ account: from, to: call.to as never, data: call.data as never, gas: limit });
    await expect(at(gas)).resolves.toBeDefined();
    await expect(at(42_000n)).rejects.toThrow();
  });

  it("answers a revert that names its reason from the first batch", async () => {
    const settler = settlerWith(195_000);
    const resolver = await newResolver();
    await approve(resolver, EVM.usdc, EVM.executor, 0n);
    const request = await signedFill(resolver);
    const batches = recordBatches();
    // The resolver approved no USDC to the executor: the fill reverts, naming why.
    const outcome = await settler.preflight(request, now()).fill;
    expect(outcome).toMatchObject({ kind: "requote", reason: expect.stringMatching(/^resolver:/) });
    expect(batches).toHaveLength(1);
  });
});
