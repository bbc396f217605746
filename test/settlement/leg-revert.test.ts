import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { type Bidder, marketSellAmount } from "../support/bidder";
import { app, chainClient, getExecution, indexUntil, newTaker, signQuote, submit, testClient } from "./helpers";
import { type Answer, askNodes, counted, drainFirst, rfqOf, standingOf } from "./legs";
import { onlineNodes } from "./nodes";

/**
 * A fill of several makers that reverts after its broadcast (docs/legs.md, "Settlement and blame";
 * docs/settlement.md, "Attribution after broadcast"): one leg's resolver moves its balance away ahead of
 * the fill in the fill's block. The replay names that leg, and only its resolver is counted and struck,
 * not the quote's resolver.
 */

let sellAmount = 0n;
const MARKET = 100_000_000n;
beforeAll(async () => {
  sellAmount = BigInt(await marketSellAmount((path) => app.request(path, {}, env))) * 100n;
});

let open: Bidder[] = [];
afterEach(async () => {
  await testClient.setAutomine(true);
  for (const b of open) b.socket.close();
  open = [];
});

describe("a fill of two legs reverted in its block by one leg's resolver", () => {
  it("strikes and counts the leg the replay names, not the quote's resolver", async () => {
    const held = (MARKET * 6n) / 10n;
    const nodes = (await onlineNodes(open, [2, "part-a", held], [3, "part-b", held])) as [Bidder, Bidder];
    for (const n of nodes) await upsertRegistration(env.DB, n.account.address, {}, new Date().toISOString());
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const half = sellAmount / 2n;
    const quote = (await (
      await askNodes(open, { sellAmount: sellAmount.toString(), taker: taker.address }, (r) =>
        Promise.all(nodes.map((n, i) => n.part(rfqOf(r, n), i === 0 ? half : sellAmount - half, MARKET / 2n))).then(
          () => {},
        ),
      )
    ).json()) as Answer;
    expect(quote.legs).toHaveLength(2);
    // The leg that is not the quote's resolver's moves its balance away.
    const lead = nodes.find((n) => n.account.address === quote.resolver?.address) as Bidder;
    const other = nodes.find((n) => n !== lead) as Bidder;
    const signature = await signQuote(taker, quote.typedData);

    await testClient.setAutomine(false);
    const sub = await submit({ quoteId: quote.quoteId, signature });
    expect(sub.status).toBe(202);
    const { hash, restore } = await drainFirst(other);
    try {
      await testClient.mine({ blocks: 1 });
      await testClient.setAutomine(true);
      const fill = await chainClient.getTransactionReceipt({ hash: sub.body.txHash as Hex });
      const moved = await chainClient.getTransactionReceipt({ hash });
      expect(fill.status).toBe("reverted");
      expect(moved).toMatchObject({ status: "success", blockNumber: fill.blockNumber });
      expect(moved.transactionIndex).toBeLessThan(fill.transactionIndex);

      expect((await indexUntil(quote.quoteId, (q) => q.status === "failed")).status).toBe("failed");
      const execution = await getExecution(String(sub.body.executionId));
      expect(execution).toMatchObject({ status: "failed", reason: "resolver:insufficient_balance" });
      expect((await readResolver(env.DB, other.account.address))?.demotions).toBe(1);
      expect((await readResolver(env.DB, lead.account.address))?.demotions).toBe(0);
      // Its fill rate's miss is the leg's: one submitted each, one failed of the leg that failed.
      expect(counted(await standingOf(other.account.address))).toEqual({ submitted: 1, settled: 0, failed: 1 });
      expect(counted(await standingOf(lead.account.address))).toEqual({ submitted: 1, settled: 0, failed: 0 });
    } finally {
      await testClient.setAutomine(true);
      await restore();
    }
  });
});
