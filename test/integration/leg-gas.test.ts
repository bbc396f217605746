import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LEG_GAS } from "../../src/costs/fill-units";
import { recentGasUsed } from "../../src/db/fill-costs";
import { fillStatements } from "../../src/db/settlement";
import { newId } from "../../src/ids";
import { insertExecutionStatement } from "../support/execution-rows";
import { seedQuote } from "../support/records";

/**
 * The gas a chain's settled fills price the next ones from (docs/settlement.md, "The gas of each kind of
 * fill"), each as a fill of one leg: a fill of several makers (docs/legs.md) less `LEG_GAS` a further leg,
 * so a one-leg fill is not priced at a fill of legs, and the legs priced on it are not counted twice.
 */

const CHAIN = 990_001;

/** A settled fill of `legs` makers that used `gasUsed`, its `fills` one per leg, as the indexer writes them. */
async function settledFill(gasUsed: bigint, legs: number, at: string): Promise<void> {
  const { quote } = await seedQuote(env.DB, { chainId: CHAIN });
  const txHash = `0x${newId("x").slice(2, 66).padEnd(64, "0")}`;
  const fills = Array.from({ length: legs }, (_, i) => ({
    orderHash: `0x${String(i + 1).repeat(64)}`,
    resolver: `0x${String(i + 1).repeat(40)}`,
    filler: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    logIndex: i,
  }));
  await env.DB.batch([
    insertExecutionStatement(env.DB, {
      executionId: newId("x"),
      quoteId: quote.quoteId,
      status: "settled",
      reason: null,
      blame: null,
      txHash,
      submitter: fills[0]?.filler ?? null,
      gasUsed: gasUsed.toString(),
      resolver: quote.resolver?.address ?? null,
      proceeds: quote.proceeds,
      takerPays: quote.takerPays,
      createdAt: at,
      updatedAt: at,
    }),
    ...fillStatements(env.DB, quote.quoteId, txHash, fills),
  ]);
}

describe("the gas of a chain's recent fills", () => {
  it("reads a fill of several makers as one leg's, less LEG_GAS for each leg past the first", async () => {
    // Measured on anvil (test/contracts/rfq-executor-legs.test.ts): one leg 164,771, four 282,606 (warm).
    await settledFill(164_771n, 1, "2026-01-01T00:00:01.000Z");
    await settledFill(282_606n, 4, "2026-01-01T00:00:02.000Z");
    const read = await recentGasUsed(env.DB, CHAIN, "rfq", null, LEG_GAS);
    expect(read).toEqual([282_606n - 3n * LEG_GAS, 164_771n]);
    // Read as it was, the fill of four is a one-leg fill of 282,606 gas.
    expect(await recentGasUsed(env.DB, CHAIN, "rfq", null)).toEqual([282_606n, 164_771n]);
  });
});
