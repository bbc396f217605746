import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { followToFinal } from "../../src/clients/taker/follow";
import { followLimitOrder, getLimitOrder, limitOrder } from "../../src/clients/taker/limit";
import { permit2Allowance } from "../../src/clients/taker/permit";
import { balance, base, client, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * `npm run demo -- --limit` as a test (docs/limit-orders.md): a taker places a limit order at the market on
 * the local stack, the keeper's 5 s job auctions it among two reference resolvers, settles the winning
 * bid through the reactor, and the order is `filled` with its quote `final`.
 */

const { cngn, usdc, permit2 } = deployment;
// A taker no other e2e file settles with, so its balances move only here.
const taker = anvilAccount(LOCAL_ACCOUNTS.takers[3]);
withAlphaAndBeta();

describe("a limit order on the local stack", () => {
  it("placed at the market with an EIP-2612 permit, is filled by the keeper's auction and its quote is final", async () => {
    const before = { cngn: await balance(cngn, taker.address), usdc: await balance(usdc, taker.address) };
    expect(await permit2Allowance(client, { token: cngn, owner: taker.address, permit2 })).toBe(0n);

    // The band's mid is 1,580 NGN per USD, so 15,800 cNGN is worth 10 USDC: the limit is the market. The gas
    // fee is priced from anvil's fees at the local ETH price, so the order is large enough for 3 × it.
    const { draft, permit, order } = await limitOrder({
      relayUrl: base,
      client,
      account: taker,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "15800000000",
      limitAmount: "10000000",
      expiresInSeconds: 600,
    });
    // minOut is the limit less the 10 bps fee and the most gas fee the order allows.
    expect(BigInt(draft.draft.minOut)).toBe(10_000_000n - 10_000n - BigInt(draft.draft.maxGasFee));
    expect(BigInt(draft.draft.maxGasFee)).toBe(3n * BigInt(draft.gasFeeNow));
    expect(permit).not.toBeNull();
    expect(order).toMatchObject({ status: "open", attempts: 0, quoteId: null });

    const filled = await followLimitOrder(base, order.limitOrderId, { timeoutMs: 30_000 });
    // alpha bids the mid (10 USDC), beta 15 bps under it: alpha's bid meets the limit and fills it.
    expect(filled).toMatchObject({ status: "filled", lastError: null });
    expect(filled.attempts).toBeGreaterThanOrEqual(1);
    expect(filled.quoteId).toMatch(/^q/);

    const { quote } = await followToFinal(base, filled.quoteId ?? "", { timeoutMs: 30_000 });
    // The fill charged the gas fee priced at fill time, never above the order's maxGasFee.
    expect(quote.gasFee.source).toBe("priced");
    const gasFee = BigInt(quote.gasFee.amount);
    expect(gasFee).toBeLessThanOrEqual(BigInt(draft.draft.maxGasFee));
    const expected = 10_000_000n - 10_000n - gasFee;
    expect(quote).toMatchObject({
      status: "settled",
      final: true,
      received: String(expected),
      takerPays: "15800000000",
    });
    expect(filled.bestReceived).toBe(String(expected));
    expect(quote.resolver?.name).toBe("alpha");
    expect(quote.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);
    expect(await getLimitOrder(base, order.limitOrderId)).toEqual(filled);

    // The taker paid the sell amount and received at least minOut: here exactly the quote's `received`.
    expect(await balance(cngn, taker.address)).toBe(before.cngn - 15_800_000_000n);
    const received = (await balance(usdc, taker.address)) - before.usdc;
    expect(received).toBe(expected);
    expect(received).toBeGreaterThanOrEqual(BigInt(draft.draft.minOut));
    // The permit approved Permit2 for good, as with a swap.
    expect(await permit2Allowance(client, { token: cngn, owner: taker.address, permit2 })).toBe(maxUint256);
  });
});
