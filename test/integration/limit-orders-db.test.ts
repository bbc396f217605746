import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { dueLimitOrders, recordLimitChecks } from "../../src/db/limit-book";
import {
  cancelLimitOrder,
  expireLimitOrders,
  failLimitFill,
  followLimitFills,
  limitFillFailed,
  startLimitFill,
} from "../../src/db/limit-moves";
import {
  countActiveLimitOrders,
  insertLimitOrder,
  limitNonceTaken,
  listLimitOrders,
  readLimitOrder,
  readLimitOrderProgress,
} from "../../src/db/limit-orders";
import { newId } from "../../src/ids";
import type { LimitOrderRow } from "../../src/schemas/limit-order";
import { sampleLimitOrder } from "../support/limit-records";
import { seedQuote } from "../support/records";

/** The limit orders' D1 statements against the real local D1: the routes' and the keeper job's, one set. */
const db = env.DB;
const iso = (ms: number) => new Date(ms).toISOString();
const now = () => iso(Date.now());

async function place(overrides: Partial<LimitOrderRow> = {}, max = 20): Promise<LimitOrderRow> {
  const row = sampleLimitOrder(overrides);
  expect(await insertLimitOrder(db, row, max, now())).toBe("placed");
  return row;
}

const statusOf = async (id: string) => (await readLimitOrder(db, id))?.status;

beforeEach(async () => {
  await db.exec("DELETE FROM limit_orders");
});

describe("placing and reading", () => {
  it("stores every field and reads it back as it was, JSON columns included", async () => {
    const row = await place({
      erc2612: { value: "5", deadline: "9", v: 27, r: `0x${"22".repeat(32)}`, s: `0x${"33".repeat(32)}` },
    });
    expect(await readLimitOrder(db, row.limitOrderId)).toStrictEqual(row);
    expect(await readLimitOrder(db, newId("lo"))).toBeNull();
    expect(await limitNonceTaken(db, 31337, row.taker, row.nonce)).toBe(true);
    expect(await limitNonceTaken(db, 1, row.taker, row.nonce)).toBe(false);
  });

  it("refuses a nonce the taker already used on the chain", async () => {
    const row = await place();
    const again = sampleLimitOrder({ nonce: row.nonce });
    expect(await insertLimitOrder(db, again, 20, now())).toBe("nonce_used");
    expect(await insertLimitOrder(db, { ...again, chainId: 1 }, 20, now())).toBe("placed");
  });

  it("refuses a taker's order over its limit of active ones, counting filling and unexpired open orders", async () => {
    await place({}, 3);
    const filling = await place({}, 3);
    await startLimitFill(db, { limitOrderId: filling.limitOrderId, quoteId: newId("q"), now: now() });
    await place({ status: "cancelled" }, 3);
    await place({ expiresAt: iso(Date.now() - 1000) }, 3);
    expect(await countActiveLimitOrders(db, sampleLimitOrder().taker, now())).toBe(2);
    await place({}, 3);
    expect(await insertLimitOrder(db, sampleLimitOrder(), 3, now())).toBe("too_many_open");
    expect(await insertLimitOrder(db, sampleLimitOrder({ taker: "0xother" }), 3, now())).toBe("placed");
  });

  it("lists a taker's orders newest first, a page at a time, by status", async () => {
    const t0 = Date.now();
    const rows: LimitOrderRow[] = [];
    for (let i = 0; i < 5; i++)
      rows.push(await place({ createdAt: iso(t0 + i), status: i % 2 ? "cancelled" : "open" }));
    // Two orders in the same millisecond are ordered by id.
    rows.push(await place({ createdAt: iso(t0 + 4) }));
    await place({ taker: "0xother" });
    const taker = rows[0]?.taker ?? "";
    const newestFirst = [...rows]
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (a.limitOrderId < b.limitOrderId ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      )
      .map((r) => r.limitOrderId);
    const seen: string[] = [];
    let after: { createdAt: string; limitOrderId: string } | null = null;
    for (let page = 0; page < 4; page++) {
      const got = await listLimitOrders(db, { taker, chainId: 31337, status: null, limit: 2, after, now: now() });
      seen.push(...got.map((r) => r.limitOrderId));
      const last = got.at(-1);
      if (!last) break;
      after = { createdAt: last.createdAt, limitOrderId: last.limitOrderId };
    }
    expect(seen).toEqual(newestFirst);
    const cancelled = await listLimitOrders(db, {
      taker,
      chainId: 31337,
      status: "cancelled",
      limit: 10,
      after: null,
      now: now(),
    });
    expect(cancelled.map((r) => r.limitOrderId)).toEqual([rows[3]?.limitOrderId, rows[1]?.limitOrderId]);
    expect(await listLimitOrders(db, { taker, chainId: 1, status: null, limit: 10, after: null, now: now() })).toEqual(
      [],
    );
  });
});

describe("cancel and expiry", () => {
  it("cancels an open, unexpired order once", async () => {
    const row = await place();
    expect(await cancelLimitOrder(db, row.limitOrderId, now())).toBe(true);
    expect(await cancelLimitOrder(db, row.limitOrderId, now())).toBe(false);
    expect(await statusOf(row.limitOrderId)).toBe("cancelled");
  });

  it("does not cancel a filling order, nor one past its expiry", async () => {
    const filling = await place();
    await startLimitFill(db, { limitOrderId: filling.limitOrderId, quoteId: newId("q"), now: now() });
    expect(await cancelLimitOrder(db, filling.limitOrderId, now())).toBe(false);
    const late = await place({ expiresAt: iso(Date.now() - 1) });
    expect(await cancelLimitOrder(db, late.limitOrderId, now())).toBe(false);
  });

  it("expires one order, or sweeps every open order past its expiry in one statement, naming what moved", async () => {
    const past = iso(Date.now() - 1000);
    const a = await place({ expiresAt: past });
    const b = await place({ expiresAt: past });
    const c = await place({ expiresAt: past, status: "filling" });
    const d = await place();
    expect(await expireLimitOrders(db, now(), a.limitOrderId)).toEqual([
      { limitOrderId: a.limitOrderId, corridor: a.corridor },
    ]);
    expect(await expireLimitOrders(db, now(), d.limitOrderId)).toEqual([]);
    expect(await expireLimitOrders(db, now())).toEqual([{ limitOrderId: b.limitOrderId, corridor: b.corridor }]);
    expect(await expireLimitOrders(db, now())).toEqual([]);
    expect([await statusOf(a.limitOrderId), await statusOf(b.limitOrderId)]).toEqual(["expired", "expired"]);
    expect([await statusOf(c.limitOrderId), await statusOf(d.limitOrderId)]).toEqual(["filling", "open"]);
  });
});

describe("reading as of now", () => {
  it("reads an open order past its expiry as expired at its expiresAt, and writes nothing", async () => {
    const past = iso(Date.now() - 1000);
    const late = await place({ expiresAt: past });
    const live = await place();
    expect(await readLimitOrder(db, late.limitOrderId, now())).toStrictEqual({
      ...late,
      status: "expired",
      updatedAt: past,
    });
    expect(await readLimitOrder(db, live.limitOrderId, now())).toStrictEqual(live);
    expect(await statusOf(late.limitOrderId)).toBe("open");
    // What the keeper's sweep then records is what the read showed.
    await expireLimitOrders(db, now());
    expect(await readLimitOrder(db, late.limitOrderId)).toStrictEqual(
      await readLimitOrder(db, late.limitOrderId, now()),
    );
  });

  it("lists and filters an open order past its expiry by the status it has now", async () => {
    const late = await place({ expiresAt: iso(Date.now() - 1000) });
    const live = await place();
    const list = (status: "open" | "expired") =>
      listLimitOrders(db, { taker: late.taker, chainId: 31337, status, limit: 10, after: null, now: now() });
    expect((await list("expired")).map((r) => [r.limitOrderId, r.status])).toEqual([[late.limitOrderId, "expired"]]);
    expect((await list("open")).map((r) => r.limitOrderId)).toEqual([live.limitOrderId]);
    expect(await statusOf(late.limitOrderId)).toBe("open");
  });
});

describe("the keeper's limit job", () => {
  it("lists open, unexpired orders due for a check, least recently checked first, at most a batch", async () => {
    const t0 = Date.now();
    const checkedLongAgo = await place({ lastCheckedAt: iso(t0 - 60_000), createdAt: iso(t0 - 5) });
    const never1 = await place({ createdAt: iso(t0 - 4) });
    const never2 = await place({ createdAt: iso(t0 - 3) });
    await place({ lastCheckedAt: iso(t0 - 1000) });
    await place({ expiresAt: iso(t0 - 1) });
    await place({ status: "cancelled" });
    const due = await dueLimitOrders(db, { now: iso(t0), checkedBefore: iso(t0 - 5000), limit: 10 });
    expect(due.map((r) => r.limitOrderId)).toEqual([
      never1.limitOrderId,
      never2.limitOrderId,
      checkedLongAgo.limitOrderId,
    ]);
    expect(due[0]?.typedData).toEqual(never1.typedData);
    const batch = await dueLimitOrders(db, { now: iso(t0), checkedBefore: iso(t0 - 5000), limit: 2 });
    expect(batch).toHaveLength(2);
  });

  it("records the checks of many orders in one statement", async () => {
    const a = await place();
    const b = await place({ attempts: 4, bestReceived: "1", lastError: "old" });
    const short = await place({ attempts: 2 });
    const done = await place({ status: "filled" });
    const at = now();
    const changed = await recordLimitChecks(db, [
      { limitOrderId: a.limitOrderId, lastCheckedAt: at, auctioned: true, bestReceived: "99800000", lastError: null },
      { limitOrderId: b.limitOrderId, lastCheckedAt: at, auctioned: true, bestReceived: null, lastError: "no_offers" },
      { limitOrderId: short.limitOrderId, lastCheckedAt: at, auctioned: false, bestReceived: null, lastError: "x" },
      { limitOrderId: done.limitOrderId, lastCheckedAt: at, auctioned: true, bestReceived: "5", lastError: null },
      { limitOrderId: newId("lo"), lastCheckedAt: at, auctioned: true, bestReceived: "5", lastError: null },
    ]);
    expect(changed).toBe(3);
    // Checked but not auctioned: the check is recorded, `attempts` (auctions run) is not raised.
    expect(await readLimitOrder(db, short.limitOrderId)).toMatchObject({
      attempts: 2,
      lastError: "x",
      lastCheckedAt: at,
    });
    expect(await readLimitOrder(db, a.limitOrderId)).toMatchObject({
      attempts: 1,
      lastCheckedAt: at,
      bestReceived: "99800000",
      lastError: null,
      updatedAt: at,
    });
    expect(await readLimitOrder(db, b.limitOrderId)).toMatchObject({
      attempts: 5,
      lastCheckedAt: at,
      bestReceived: null,
      lastError: "no_offers",
    });
    expect(await readLimitOrder(db, done.limitOrderId)).toMatchObject({ attempts: 0, lastCheckedAt: null });
    expect(await recordLimitChecks(db, [])).toBe(0);
  });

  it("moves open → filling once, with the filling quote's id, and never an order past its expiry", async () => {
    const row = await place();
    const quoteId = newId("q");
    expect(await startLimitFill(db, { limitOrderId: row.limitOrderId, quoteId, now: now() })).toBe(true);
    expect(await startLimitFill(db, { limitOrderId: row.limitOrderId, quoteId: newId("q"), now: now() })).toBe(false);
    expect(await readLimitOrder(db, row.limitOrderId)).toMatchObject({ status: "filling", quoteId });
    const late = await place({ expiresAt: iso(Date.now() - 1) });
    expect(await startLimitFill(db, { limitOrderId: late.limitOrderId, quoteId, now: now() })).toBe(false);
  });

  it("follows filling orders to their quotes: filled once settled, and only those", async () => {
    const settled = await place();
    const pending = await place();
    const { quote } = await seedQuote(db, { status: "settled" });
    const { quote: open } = await seedQuote(db);
    await startLimitFill(db, { limitOrderId: settled.limitOrderId, quoteId: quote.quoteId, now: now() });
    await startLimitFill(db, { limitOrderId: pending.limitOrderId, quoteId: open.quoteId, now: now() });
    expect(await followLimitFills(db, now())).toEqual([
      { limitOrderId: settled.limitOrderId, corridor: settled.corridor },
    ]);
    expect(await followLimitFills(db, now())).toEqual([]);
    expect(await readLimitOrder(db, settled.limitOrderId)).toMatchObject({ status: "filled", quoteId: quote.quoteId });
    expect(await readLimitOrder(db, pending.limitOrderId)).toMatchObject({ status: "filling", quoteId: open.quoteId });
  });

  it("follows a filling order whose quote failed back to open, clearing the quote, with the reason", async () => {
    const row = await place();
    const { quote } = await seedQuote(db, { status: "failed" });
    await startLimitFill(db, { limitOrderId: row.limitOrderId, quoteId: quote.quoteId, now: now() });
    expect(await followLimitFills(db, now())).toEqual([{ limitOrderId: row.limitOrderId, corridor: row.corridor }]);
    expect(await readLimitOrder(db, row.limitOrderId)).toMatchObject({
      status: "open",
      quoteId: null,
      lastError: "fill_failed",
    });
  });

  it("moves filling → open when the fill failed, clearing the quote and keeping the reason", async () => {
    const row = await place();
    const quoteId = newId("q");
    await startLimitFill(db, { limitOrderId: row.limitOrderId, quoteId, now: now() });
    const reopen = { limitOrderId: row.limitOrderId, quoteId, reason: "reverted", now: now() };
    expect(await failLimitFill(db, { ...reopen, quoteId: newId("q") })).toBe(false);
    expect(await failLimitFill(db, reopen)).toBe(true);
    expect(await failLimitFill(db, reopen)).toBe(false);
    expect(await readLimitOrder(db, row.limitOrderId)).toMatchObject({
      status: "open",
      quoteId: null,
      lastError: "reverted",
    });
  });

  it("ends a filling order whose taker signature the chain refuses: filling → cancelled, never open again", async () => {
    const refusedBeforeSending = await place();
    const quoteId = newId("q");
    await startLimitFill(db, { limitOrderId: refusedBeforeSending.limitOrderId, quoteId, now: now() });
    const refusal = { limitOrderId: refusedBeforeSending.limitOrderId, quoteId, reason: "taker:bad_signature" };
    expect(await failLimitFill(db, { ...refusal, now: now() })).toBe(true);
    expect(await failLimitFill(db, { ...refusal, now: now() })).toBe(false);
    expect(await readLimitOrder(db, refusedBeforeSending.limitOrderId)).toMatchObject({
      status: "cancelled",
      quoteId: null,
      lastError: "taker:bad_signature",
    });

    // Refused on chain after its broadcast: the indexer's statement ends it the same way; any other failure reopens.
    const refusedOnChain = await place();
    const reverted = await place();
    const { quote: first } = await seedQuote(db);
    const { quote: second } = await seedQuote(db);
    await startLimitFill(db, { limitOrderId: refusedOnChain.limitOrderId, quoteId: first.quoteId, now: now() });
    await startLimitFill(db, { limitOrderId: reverted.limitOrderId, quoteId: second.quoteId, now: now() });
    await db.batch([
      limitFillFailed(db, first.quoteId, "taker:bad_signature", now()),
      limitFillFailed(db, second.quoteId, "resolver:insufficient_balance", now()),
    ]);
    expect(await readLimitOrder(db, refusedOnChain.limitOrderId)).toMatchObject({
      status: "cancelled",
      lastError: "taker:bad_signature",
    });
    expect(await readLimitOrder(db, reverted.limitOrderId)).toMatchObject({ status: "open", lastError: "fill_failed" });
  });
});

describe("the order's event log (migrations/0008)", () => {
  it("records each status it takes, with the fields that change, and nothing for other updates", async () => {
    const order = await place();
    await recordLimitChecks(db, [
      {
        limitOrderId: order.limitOrderId,
        lastCheckedAt: now(),
        auctioned: true,
        bestReceived: "90",
        lastError: "below_limit",
      },
    ]);
    expect(await startLimitFill(db, { limitOrderId: order.limitOrderId, quoteId: "q_x", now: now() })).toBe(true);
    const progress = await readLimitOrderProgress(db, order.limitOrderId);
    expect(progress?.status).toBe("filling");
    expect(progress?.events.map((e) => e.status)).toEqual(["open", "filling"]);
    expect(progress?.events[1]?.data).toMatchObject({
      status: "filling",
      quoteId: "q_x",
      attempts: 1,
      bestReceived: "90",
    });
    expect(await readLimitOrderProgress(db, newId("lo"))).toBeNull();
  });
});
