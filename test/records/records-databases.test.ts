import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { KeeperDO } from "../../durable-objects/keeper";
import { createApp } from "../../src/app";
import { allCorridors, corridorTag } from "../../src/chains";
import { loadConfig } from "../../src/config/load";
import { upsertRegistration } from "../../src/db/resolvers";
import { newId } from "../../src/ids";
import type { QuotePage } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { insertExecutionStatement } from "../support/execution-rows";
import { seedExecution, seedQuote } from "../support/records";
import { EVM, eventually } from "../support/ws-client";

/**
 * A corridor's records in a database of its own (docs/capacity.md, "Records by corridor"): this project's
 * relay keeps its EVM corridor's in `RECORDS_2` (vitest.config.ts) and every other corridor's in `DB`.
 */

const app = createApp();
const config = loadConfig(env.RELAY_CONFIG);
const [evm, solana] = [
  allCorridors(config).find((c) => c.chain.kind === "evm"),
  allCorridors(config).find((c) => c.chain.kind === "solana"),
];
if (!evm || !solana || !env.RECORDS_2) throw new Error("this project's relay has two corridors and RECORDS_2");
const records2 = env.RECORDS_2;
/** An id of the EVM corridor, in RECORDS_2; one of the Solana corridor, in DB. */
const inSecond = () => newId("q", corridorTag(evm.key));
const inMain = () => newId("q", corridorTag(solana.key));

const get = async (path: string) => {
  const res = await app.request(path, {}, env);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const count = async (db: D1Database, sql: string, ...binds: unknown[]) =>
  (
    await db
      .prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;
const quoteRows = (db: D1Database, id: string) => count(db, "SELECT COUNT(*) AS n FROM quotes WHERE quote_id = ?", id);

/** The leader's 10 s job, run now: expiry, and the counts' move to DB. */
async function expireJob() {
  const keeper = env.KEEPER.get(env.KEEPER.idFromName("leader"));
  await runInDurableObject(keeper, (_: KeeperDO, state) => {
    state.storage.sql.exec("UPDATE keeper_schedule SET next_at = 0 WHERE job = 'expire'");
  });
  expect(await runDurableObjectAlarm(keeper)).toBe(true);
}

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

describe("a corridor whose records are in a second database", () => {
  it("writes its auction's quote, offers and timeline there, the resolvers' counters in DB, and reads it by id", async () => {
    const alpha = await bidder(0, "alpha");
    open.push(alpha);
    await eventually(async () => {
      const { body } = await get("/v1/nodes");
      expect((body.nodes as { name: string; fresh: boolean }[]).some((n) => n.name === "alpha" && n.fresh)).toBe(true);
    });
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const rfq = await alpha.nextRfq();
    await alpha.bid(rfq, 1_000_000n);
    const answered = await pending;
    expect(answered.status).toBe(200);
    const { quoteId } = (await answered.json()) as { quoteId: string };

    const read = await get(`/v1/quotes/${quoteId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ quoteId, status: "quoted", resolver: { name: "alpha" } });
    await eventually(async () => {
      expect(await quoteRows(records2, quoteId)).toBe(1);
      expect(await count(records2, "SELECT COUNT(*) AS n FROM offers WHERE quote_id = ?", quoteId)).toBe(1);
      expect(await count(records2, "SELECT COUNT(*) AS n FROM timeline_events WHERE quote_id = ?", quoteId)).toBe(2);
    });
    expect(await quoteRows(env.DB, quoteId)).toBe(0);
    // The auction's counters are written with its quote, then moved by the leader's job to DB, once.
    const won = "SELECT COALESCE(SUM(won), 0) AS n FROM resolver_days WHERE address = ?";
    const address = alpha.account.address.toLowerCase();
    const wonBefore = await count(env.DB, won, address);
    expect(await count(records2, won, address)).toBe(1);
    for (let run = 0; run < 2; run++) await expireJob();
    expect(await count(env.DB, won, address)).toBe(wonBefore + 1);
    expect(await count(records2, won, address)).toBe(0);
    expect(await count(env.DB, "SELECT COUNT(*) AS n FROM offers WHERE quote_id = ?", quoteId)).toBe(0);
  });

  it("counts a bid against its node's ladder in the corridor's database, and moves the count to DB once", async () => {
    const beta = await bidder(1, "beta");
    open.push(beta);
    const address = beta.account.address.toLowerCase();
    const levels = "SELECT COALESCE(SUM(samples), 0) AS n FROM level_days WHERE resolver = ?";
    const inDb = await count(env.DB, levels, address);
    // beta's ladder pays 1 USDC for the asked amount; it then bids 1 % under it.
    const ladder = {
      type: "levels",
      chainId: EVM.chainId,
      sellToken: EVM.cngn,
      buyToken: EVM.usdc,
      levels: [{ sellAmount, outputAmount: "1000000" }],
    };
    await eventually(async () => {
      beta.socket.send(ladder);
      const res = await app.request(
        `/v1/prices?sellToken=${EVM.cngn}&buyToken=${EVM.usdc}&sellAmount=${sellAmount}`,
        {},
        env,
      );
      expect(((await res.json()) as { buyAmount?: string }).buyAmount).toBe("1000000");
    });
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    await beta.bid(await beta.nextRfq(), 990_000n);
    expect((await pending).status).toBe(200);
    await eventually(async () => expect(await count(records2, levels, address)).toBe(1));
    expect(await count(env.DB, levels, address)).toBe(inDb);
    for (let run = 0; run < 2; run++) await expireJob();
    expect(await count(env.DB, levels, address)).toBe(inDb + 1);
    expect(await count(records2, levels, address)).toBe(0);
  });

  it("reads a quote and its execution by id from the corridor's database", async () => {
    const { quote } = await seedQuote(records2, { quoteId: inSecond() });
    const seeded = await seedExecution(records2, quote.quoteId);
    // An execution's id carries its quote's tag (src/keeper/trial.ts).
    const executionId = newId("x", corridorTag(evm.key));
    await records2
      .prepare("UPDATE executions SET execution_id = ?1 WHERE execution_id = ?2")
      .bind(executionId, seeded.executionId)
      .run();
    expect((await get(`/v1/quotes/${quote.quoteId}`)).body).toMatchObject({ quoteId: quote.quoteId });
    expect((await get(`/v1/executions/${executionId}`)).body).toMatchObject({ executionId, quoteId: quote.quoteId });
    expect(await quoteRows(env.DB, quote.quoteId)).toBe(0);
  });

  it("lists a taker's quotes of both databases newest first, page by page", async () => {
    const taker = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();
    const ids: string[] = [];
    for (let minute = 0; minute < 5; minute++) {
      const [db, quoteId] = minute % 2 === 0 ? [records2, inSecond()] : [env.DB, inMain()];
      await seedQuote(db, { quoteId, taker, recipient: taker, quotedAt: at(minute) });
      ids.unshift(quoteId);
    }
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 3; page++) {
      const { status, body } = await get(`/v1/quotes?taker=${taker}&limit=2${cursor}`);
      expect(status).toBe(200);
      const list = body as unknown as QuotePage;
      seen.push(...list.quotes.map((q) => q.quoteId));
      if (!list.nextCursor) break;
      cursor = `&cursor=${list.nextCursor}`;
    }
    expect(seen).toEqual(ids);
  });

  it("expires the due quotes of both databases in the keeper's sweep", async () => {
    const past = new Date(Date.now() - 1_000).toISOString();
    const { quote: second } = await seedQuote(records2, { quoteId: inSecond(), expiresAt: past });
    const { quote: main } = await seedQuote(env.DB, { quoteId: inMain(), expiresAt: past });
    await expireJob();
    const status = (db: D1Database, id: string) =>
      db.prepare("SELECT status FROM quotes WHERE quote_id = ?").bind(id).first<{ status: string }>("status");
    expect(await status(records2, second.quoteId)).toBe("expired");
    expect(await status(env.DB, main.quoteId)).toBe("expired");
  });

  it("archives the ended quotes of both databases; each reads as before with archived: true", async () => {
    const ended = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const seeded = [];
    for (const [db, quoteId] of [
      [records2, inSecond()],
      [env.DB, inMain()],
    ] as const) {
      const { quote } = await seedQuote(db, { quoteId, status: "expired", quotedAt: ended, expiresAt: ended });
      await db.prepare("UPDATE quotes SET updated_at = ?2 WHERE quote_id = ?1").bind(quoteId, ended).run();
      seeded.push({ db, quote, before: (await get(`/v1/quotes/${quoteId}`)).body });
    }
    const res = await app.request(
      "/v1/admin/archive",
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
        body: JSON.stringify({ before: new Date(Date.now() - 3_600_000).toISOString() }),
      },
      env,
    );
    expect(res.status).toBe(200);
    const run = (await res.json()) as { archived: number; completeFrom: string | null };
    expect(run.archived).toBeGreaterThanOrEqual(2);
    expect(run.completeFrom).not.toBeNull();
    for (const { db, quote, before } of seeded) {
      expect(await quoteRows(db, quote.quoteId)).toBe(0);
      const after = await get(`/v1/quotes/${quote.quoteId}`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual({ ...before, archived: true });
    }
  });

  it("shows on a resolver's page the failures not its fault of both databases, newest first", async () => {
    const resolver = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
    const now = Date.now();
    await upsertRegistration(env.DB, resolver, { name: "eta" }, new Date(now - 60_000).toISOString());
    const failed = async (db: D1Database, quoteId: string, reason: string, ago: number) => {
      await seedQuote(db, { quoteId, resolver: { address: resolver, name: "eta", solanaAddress: null } });
      const at = new Date(now - ago).toISOString();
      const row = { quoteId, status: "failed" as const, reason, blame: null, txHash: null, submitter: null };
      const more = { gasUsed: null, resolver, proceeds: "1", takerPays: "1", createdAt: at, updatedAt: at };
      await insertExecutionStatement(db, { executionId: newId("x", quoteId.slice(2, 10)), ...row, ...more }).run();
    };
    const [second, main] = [inSecond(), inMain()];
    await failed(records2, second, "taker:nonce_used", 1_000);
    await failed(env.DB, main, "relay:fee_mismatch", 2_000);
    const { status, body } = await get(`/v1/resolvers/${resolver}`);
    expect(status).toBe(200);
    const notCounted = body.notCounted as { quoteId: string; reason: string }[];
    expect(notCounted.map((f) => [f.quoteId, f.reason])).toEqual([
      [second, "taker:nonce_used"],
      [main, "relay:fee_mismatch"],
    ]);
  });
});
