import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver } from "../../src/db/resolvers";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { app, balanceOf, EVM, getExecution, getQuote, newTaker, runIndexer, signQuote, submit } from "./helpers";
import { drain, onlineNodes } from "./nodes";

/**
 * A winner that fades after winning (docs/settlement.md, "When the winner fades"): on EVM the keeper strikes
 * it and fills the same signed quote with the next bid that pays at least `minReceived`, on a real chain.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

describe("a winner that drains its inventory after winning", () => {
  it("is struck, and the swap settles through the next bid with the taker's one signature", async () => {
    const [alpha, beta] = (await onlineNodes(open, [0, "alpha"], [1, "beta"])) as [Bidder, Bidder];
    const taker = await newTaker();
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount, taker: taker.address, slippageBps: 100 })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const [rfqA, rfqB] = await Promise.all([alpha.nextRfq(), beta.nextRfq()]);
    await Promise.all([alpha.bid(rfqA, 1_000_000n), beta.bid(rfqB, 996_000n)]);
    const res = await pending;
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote & { typedData: Record<string, unknown> };
    expect(quote.resolver?.address).toBe(alpha.account.address);
    const signature = await signQuote(taker, quote.typedData);

    const restore = await drain(alpha);
    try {
      const usdcBefore = await balanceOf(EVM.usdc, taker.address);
      const sub = await submit({ quoteId: quote.quoteId, signature, minReceived: quote.minReceived });
      expect(sub.status).toBe(202);
      const txHash = sub.body.txHash as Hex;
      expect(await beta.socket.next("execution")).toMatchObject({
        quoteId: quote.quoteId,
        status: "submitted",
        txHash,
      });
      expect(await alpha.socket.next("execution")).toMatchObject({ quoteId: quote.quoteId, status: "failed" });

      const record = await getQuote(quote.quoteId);
      const byName = Object.fromEntries(record.offers.map((o) => [o.name, o.status]));
      expect(byName).toEqual({ alpha: "faded", beta: "won" });
      expect(record.resolver?.address).toBe(beta.account.address);
      expect(record.executions).toHaveLength(1);
      expect(record.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "fallback", "signed", "submitted"]);
      const fallback = record.timeline.find((t) => t.event === "fallback");
      expect(fallback?.detail).toMatchObject({ reason: "resolver:insufficient_balance" });
      const execution = await getExecution(String(sub.body.executionId));
      expect(execution.resolver).toBe(beta.account.address);
      const alphaRow = await readResolver(env.DB, alpha.account.address);
      expect(alphaRow?.demotions).toBe(1);

      await runIndexer();
      const settled = await getQuote(quote.quoteId);
      expect(settled.status).toBe("settled");
      const got = (await balanceOf(EVM.usdc, taker.address)) - usdcBefore;
      // The whole of what beta's bid leaves after the fees, and at least what the taker signed for.
      expect(got.toString()).toBe(settled.received);
      expect(got).toBe(996_000n - BigInt(settled.fee.amount) - BigInt(settled.gasFee.amount));
      expect(got).toBeGreaterThanOrEqual(BigInt(quote.minReceived));
      expect(got).toBeLessThan(BigInt(quote.received));
    } finally {
      await restore();
    }
  });

  it("requotes as before when no other bid meets the minimum", async () => {
    // Other accounts than the first case's, whose winner is demoted now.
    const [alpha, beta] = (await onlineNodes(open, [2, "gamma"], [3, "delta"])) as [Bidder, Bidder];
    const taker = await newTaker();
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount, taker: taker.address })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const [rfqA, rfqB] = await Promise.all([alpha.nextRfq(), beta.nextRfq()]);
    await Promise.all([alpha.bid(rfqA, 1_000_000n), beta.bid(rfqB, 996_000n)]);
    const quote = (await (await pending).json()) as Quote & { typedData: Record<string, unknown> };
    expect(quote.minReceived).toBe(quote.received);
    const signature = await signQuote(taker, quote.typedData);
    const restore = await drain(alpha);
    try {
      const sub = await submit({ quoteId: quote.quoteId, signature });
      expect(sub.status).toBe(200);
      expect(sub.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_balance" });
      const record = await getQuote(quote.quoteId);
      expect(record.offers.map((o) => o.status)).toEqual(["won", "lost"]);
      expect(record.timeline.map((t) => t.event)).not.toContain("fallback");
    } finally {
      await restore();
    }
  });
});
