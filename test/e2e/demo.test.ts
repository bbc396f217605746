import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { keeperBooksLines } from "../../scripts/lib/demo-books";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { followToFinal } from "../../src/clients/taker/follow";
import { permit2Allowance } from "../../src/clients/taker/permit";
import { submitExecution } from "../../src/clients/taker/relay";
import { swap } from "../../src/clients/taker/swap";
import { tokenToNative } from "../../src/costs/gas-fee";
import type { Execution } from "../../src/schemas/quote";
import { balance, base, client, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * `npm run demo` as a test: a taker swaps on a relay settling on anvil, with two reference resolvers
 * whose inventory is read from the chain, from the quote to `final`, through the `src/clients/taker` library.
 */

const { cngn, usdc, permit2 } = deployment;
const taker = anvilAccount(LOCAL_ACCOUNTS.takers[0]);
const alpha = anvilAccount(1);
withAlphaAndBeta();

/**
 * The keeper's books of a settled swap, printed as the demo prints them, with the margin they show: the
 * quote's gas fee at its native price, less what the fill cost the keeper (docs/settlement.md, "The
 * keeper's books"); the gas fee is priced here (the e2e stack has native prices).
 */
function keeperMargin(execution: Execution | null | undefined): bigint {
  const keeper = execution?.keeper;
  if (!keeper || keeper.nativePrice === null) throw new Error("the swap's gas fee was not priced");
  const lines = keeperBooksLines(keeper, "evm", { symbol: "USDC", decimals: 6 });
  console.log([`gas used ${execution?.gasUsed}`, ...lines].join("\n"));
  return tokenToNative(BigInt(keeper.charged.amount), keeper.nativePrice, 18, 6) - BigInt(keeper.spent);
}

describe("the demo: a taker swaps cNGN for USDC on the local stack, quote to final", () => {
  it("settles a first swap in one submission, with an EIP-2612 permit for Permit2, and makes it final", async () => {
    const before = {
      takerCngn: await balance(cngn, taker.address),
      takerUsdc: await balance(usdc, taker.address),
      alphaCngn: await balance(cngn, alpha.address),
      alphaUsdc: await balance(usdc, alpha.address),
    };
    expect(await permit2Allowance(client, { token: cngn, owner: taker.address, permit2 })).toBe(0n);

    const { signed, submission } = await swap({
      relayUrl: base,
      client,
      account: taker,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: 1_580_000_000n,
    });
    const { quote } = signed;
    // 1,580 cNGN at the band's mid of 1,580 NGN per USD is 1 USDC; beta quotes 15 bps under, so alpha wins.
    expect(quote.resolver).toEqual({ address: alpha.address, name: "alpha", solanaAddress: null });
    expect(quote.offers.map((o) => [o.name, o.outputAmount, o.status])).toEqual([
      ["alpha", "1000000", "won"],
      ["beta", "998500", "lost"],
    ]);
    expect(signed.permit).not.toBeNull();
    expect(submission.httpStatus).toBe(202);
    expect(submission.answer).toMatchObject({ quoteId: quote.quoteId, status: "submitted" });
    expect(submission.answer.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const { quote: final, execution } = await followToFinal(base, quote.quoteId, {
      executionId: submission.answer.executionId,
      timeoutMs: 30_000,
    });
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(final.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);
    expect(final.settlement?.txHash).toBe(submission.answer.txHash);
    expect(execution).toMatchObject({ status: "settled", txHash: submission.answer.txHash });
    // The fill applied the taker's permit, and its gas fee was priced for one that does.
    expect(keeperMargin(execution)).toBeGreaterThanOrEqual(0n);

    // What the quote said moved, to the base unit: the taker paid 1,580 cNGN and got `received`;
    // alpha got the proceeds and delivered its output (received + fee + gas fee).
    expect(await balance(cngn, taker.address)).toBe(before.takerCngn - BigInt(quote.takerPays));
    expect(await balance(usdc, taker.address)).toBe(before.takerUsdc + BigInt(quote.received));
    expect(await balance(cngn, alpha.address)).toBe(before.alphaCngn + BigInt(quote.proceeds));
    expect(await balance(usdc, alpha.address)).toBe(before.alphaUsdc - 1_000_000n);
    // The permit approved Permit2 for good, as an `approve` would.
    expect(await permit2Allowance(client, { token: cngn, owner: taker.address, permit2 })).toBe(maxUint256);
  });

  it("settles the next swap on that approval, and answers a repeated submission with the first execution", async () => {
    const idempotencyKey = crypto.randomUUID();
    const { signed, submission } = await swap({
      relayUrl: base,
      client,
      account: taker,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: 1_580_000_000n,
      idempotencyKey,
    });
    expect(signed.permit).toBeNull();
    expect(submission.httpStatus).toBe(202);
    const again = await submitExecution(base, signed.request, { idempotencyKey });
    expect(again.httpStatus).toBe(200);
    expect(again.answer).toMatchObject({ executionId: submission.answer.executionId, duplicate: true });

    const { quote, execution } = await followToFinal(base, signed.quote.quoteId, {
      executionId: submission.answer.executionId,
      timeoutMs: 30_000,
    });
    expect(quote.final).toBe(true);
    expect(quote.executions).toHaveLength(1);
    expect(keeperMargin(execution)).toBeGreaterThanOrEqual(0n);
  });
});
