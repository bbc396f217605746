import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { KeeperDO } from "../../durable-objects/keeper";
import type { Quote } from "../../src/schemas/quote";
import { app, getExecution, getQuote, keeper, newTaker, runIndexer, signQuote, submit } from "../settlement/helpers";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { eventually } from "../support/ws-client";

/**
 * A swap on a corridor whose records are in a second database (docs/capacity.md, "Records by corridor"):
 * this project's relay keeps its EVM corridor's in `RECORDS_2` (vitest.config.ts). The keeper reads,
 * claims and settles the quote there; the resolver's counts reach `DB` by the leader's job.
 */

const records2 = env.RECORDS_2 as D1Database;
let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});
let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

const one = async (db: D1Database, sql: string, id: string) =>
  (await db.prepare(sql).bind(id).first<{ n: number | null }>())?.n ?? 0;
const settledCount = (db: D1Database, address: string) =>
  one(db, "SELECT COALESCE(SUM(settled), 0) AS n FROM resolver_days WHERE address = ?", address.toLowerCase());

describe("a swap on a corridor whose records are in a second database", () => {
  it("settles there, reads by id, and its resolver's counts reach DB once", async () => {
    const node = await bidder(0, "alpha");
    open.push(node);
    await eventually(async () => {
      const { nodes } = (await (await app.request("/v1/nodes", {}, env)).json()) as { nodes: { fresh: boolean }[] };
      expect(nodes.some((n) => n.fresh)).toBe(true);
    });
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
    await node.bid(await node.nextRfq(), 1_000_000n);
    const answered = await pending;
    expect(answered.status).toBe(200);
    const quote = (await answered.json()) as Quote & { typedData: Record<string, unknown> };
    const settledBefore = await settledCount(env.DB, node.account.address);

    const res = await submit({ quoteId: quote.quoteId, signature: await signQuote(taker, quote.typedData) });
    expect(res.status).toBe(202);
    const { executionId } = res.body as { executionId: string };
    await runIndexer();
    expect((await getQuote(quote.quoteId)).status).toBe("settled");
    expect(await getExecution(executionId)).toMatchObject({ executionId, status: "settled" });

    const executions = "SELECT COUNT(*) AS n FROM executions WHERE execution_id = ?";
    expect(await one(records2, executions, executionId)).toBe(1);
    expect(await one(env.DB, executions, executionId)).toBe(0);
    expect(await one(env.DB, "SELECT COUNT(*) AS n FROM quotes WHERE quote_id = ?", quote.quoteId)).toBe(0);

    // The leader's job moves the counts the settlement made in RECORDS_2 into DB, once however often it runs.
    for (let run = 0; run < 2; run++) {
      await runInDurableObject(keeper(), (_: KeeperDO, state) => {
        state.storage.sql.exec("UPDATE keeper_schedule SET next_at = 0 WHERE job = 'expire'");
      });
      await runDurableObjectAlarm(keeper());
    }
    expect(await settledCount(env.DB, node.account.address)).toBe(settledBefore + 1);
    expect(await settledCount(records2, node.account.address)).toBe(0);
  });
});
