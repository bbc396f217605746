import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { KeeperDO } from "../../durable-objects/keeper";
import { ARCHIVE_BATCH, ARCHIVE_BATCHES } from "../../src/archive";
import { localConfig } from "../../src/config/local";
import { expireAllDue } from "../../src/db/quote-status";
import { insertQuoteStatements } from "../../src/db/quote-writes";
import type { QuoteRow } from "../../src/db/quotes";
import { countStatement, dayOf, readDays } from "../../src/db/resolver-days";
import { readStrikeHistory } from "../../src/db/strikes";
import { newId } from "../../src/ids";
import { RETENTION_BACKLOG_MS, RETENTION_EVERY_MS } from "../../src/keeper/jobs";
import { retain } from "../../src/keeper/upkeep";
import { strike } from "../../src/resolvers/strikes";
import { insertExecutionStatement } from "../support/execution-rows";
import { sampleOffers, sampleQuote, sampleTimeline } from "../support/records";
import { eventually } from "../support/ws-client";

/**
 * Ended quotes leave D1 for the archive after the configuration's retention (docs/operations.md,
 * "Retention"); test/integration/archive.test.ts shows what the archive holds and answers.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** The corridor tag of every quote here (src/ids.ts): an archive object holds one corridor's day. */
const TAG = "7e7e7e7e";
const iso = (ms: number) => new Date(ms).toISOString();
const db = env.DB;
const RESOLVER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

const TABLES = ["quotes", "offers", "timeline_events", "executions", "fills"] as const;
type Counts = Record<(typeof TABLES)[number], number>;

async function countRows(): Promise<Counts> {
  const results = await db.batch<{ n: number }>(TABLES.map((t) => db.prepare(`SELECT COUNT(*) AS n FROM ${t}`)));
  return Object.fromEntries(TABLES.map((t, i) => [t, results[i]?.results[0]?.n ?? 0])) as Counts;
}

/**
 * `count` quotes, each from a taker address of its own, with their offers and first timeline events, written
 * by the statements the corridors copy to D1 (src/db/quote-writes.ts), 100 quotes to a batch.
 */
async function flood(count: number, overrides: (i: number) => Partial<QuoteRow>): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const statements: D1PreparedStatement[] = [];
    for (let i = start; i < Math.min(count, start + 100); i++) {
      const taker = privateKeyToAccount(`0x${(i + 1).toString(16).padStart(64, "0")}`).address;
      const quote = sampleQuote({ quoteId: newId("q", TAG), taker, recipient: taker, ...overrides(i) });
      ids.push(quote.quoteId);
      statements.push(...insertQuoteStatements(db, quote, sampleOffers(quote), sampleTimeline(quote)));
    }
    await db.batch(statements);
  }
  return ids;
}

/** One quote that ended at `endedAt` in `status`; `claimed` when a fill of it was started. */
async function endedQuote(status: QuoteRow["status"], endedAt: number, claimed: boolean): Promise<string> {
  const [quoteId = ""] = await flood(1, () => ({ status, quotedAt: iso(endedAt - 60_000) }));
  await db
    .prepare("UPDATE quotes SET updated_at = ?2, claimed_at = ?3 WHERE quote_id = ?1")
    .bind(quoteId, iso(endedAt), claimed ? iso(endedAt - 30_000) : null)
    .run();
  return quoteId;
}

/** An execution of the quote in `status`, and for a settled one its fill. */
async function executionOf(quoteId: string, status: "settled" | "failed" | "requote", at: number): Promise<void> {
  const statements = [
    insertExecutionStatement(db, {
      executionId: newId("x"),
      quoteId,
      status,
      reason: status === "settled" ? null : "resolver:transfer_failed",
      blame: null,
      txHash: status === "requote" ? null : `0x${"cd".repeat(32)}`,
      submitter: null,
      gasUsed: status === "settled" ? "150000" : null,
      resolver: RESOLVER,
      proceeds: "1",
      takerPays: "1",
      createdAt: iso(at),
      updatedAt: iso(at),
    }),
  ];
  if (status === "settled") {
    statements.push(
      db
        .prepare(
          `INSERT INTO fills (quote_id, tx_hash, log_index, order_hash, resolver, filler)
           VALUES (?1, ?2, 0, ?2, ?3, ?3)`,
        )
        .bind(quoteId, `0x${crypto.randomUUID().replaceAll("-", "").padEnd(64, "0")}`, RESOLVER),
    );
  }
  await db.batch(statements);
}

const exists = async (quoteId: string) =>
  (await db.prepare("SELECT 1 AS ok FROM quotes WHERE quote_id = ?").bind(quoteId).first()) !== null;

describe("the retention job", () => {
  it("archives a flood of quotes never submitted once they are unfilledHours old, in bounded batches, and keeps the rest", async () => {
    const start = Date.now();
    // A flood of quote requests, each from a new taker address, none ever signed: the keeper's sweep
    // records them expired a minute later, as it does every 10 s.
    const flooded = 3_000;
    await flood(flooded, () => ({ quotedAt: iso(start), expiresAt: iso(start + 30_000) }));
    expect(await expireAllDue(db, iso(start + 60_000))).toBe(flooded);
    // The clock of the run: unfilledHours (3) and an hour after the flood expired.
    const now = start + 60_000 + 4 * HOUR;

    const cancelled = await endedQuote("cancelled", now - 8 * DAY, false);
    const requoted = await endedQuote("failed", now - 8 * DAY, false);
    await executionOf(requoted, "requote", now - 8 * DAY);
    const recentExpiry = await endedQuote("expired", now - 2 * HOUR, false);
    // Submitted: kept filledDays (400) after they ended, with their executions and fills.
    const settled = await endedQuote("settled", now - 399 * DAY, true);
    await executionOf(settled, "settled", now - 399 * DAY);
    const revertedOnChain = await endedQuote("failed", now - 30 * DAY, true);
    await executionOf(revertedOnChain, "failed", now - 30 * DAY);
    const oldSettled = await endedQuote("settled", now - 401 * DAY, true);
    await executionOf(oldSettled, "settled", now - 401 * DAY);
    // What reliability reads is not keyed by a quote: the resolver's days and its strikes stay.
    const day = now - 8 * DAY;
    await countStatement(db, RESOLVER, { asked: 5, answered: 4, won: 2, submitted: 1, settled: 1 }, iso(day)).run();
    await db
      .prepare("INSERT INTO resolvers (address, name, updated_at) VALUES (?1, 'alpha', ?2)")
      .bind(RESOLVER.toLowerCase(), iso(day))
      .run();
    await strike(
      db,
      { resolver: RESOLVER, event: "x_old", quoteId: oldSettled, why: "transfer_failed", now: day },
      () => {},
    );

    const before = await countRows();
    // Each flooded quote: the quote, 2 offers, 3 timeline events (requested, quoted, expired).
    expect(before).toMatchObject({ quotes: flooded + 6, offers: 2 * (flooded + 6) });

    const first = await retain([db], env.ARCHIVE, localConfig, now);
    // One run archives at most ARCHIVE_BATCHES batches of ARCHIVE_BATCH quotes of each kind, one corridor's
    // day to a batch (the two that ended 8 days ago are one), and says more are left.
    expect(first.unsubmitted).toEqual([2, ...Array(ARCHIVE_BATCHES - 1).fill(ARCHIVE_BATCH)]);
    expect(first.more).toBe(true);
    // The submitted quote that ended 401 days ago went in the same run, with its execution and fill.
    expect(first.submitted).toEqual([1]);
    const afterFirst = await countRows();
    expect(afterFirst.quotes).toBe(before.quotes - 2 - ARCHIVE_BATCH * (ARCHIVE_BATCHES - 1) - 1);
    expect(afterFirst.offers).toBe(2 * afterFirst.quotes);

    const second = await retain([db], env.ARCHIVE, localConfig, now);
    expect(second.more).toBe(false);
    const archived = [...first.unsubmitted, ...second.unsubmitted].reduce((n, b) => n + b, 0);
    expect(archived).toBe(flooded + 2);
    expect(second.submitted).toEqual([]);

    // Left: the quote that expired 6 days ago, and the submitted quotes younger than 400 days.
    const after = await countRows();
    expect(after).toEqual({ quotes: 3, offers: 6, timeline_events: 6, executions: 2, fills: 1 });
    for (const gone of [cancelled, requoted, oldSettled]) expect(await exists(gone)).toBe(false);
    for (const kept of [recentExpiry, settled, revertedOnChain]) expect(await exists(kept)).toBe(true);
    expect(await readDays(db, RESOLVER, dayOf(iso(day)))).toMatchObject([{ asked: 5, won: 2, settled: 1 }]);
    expect(await readStrikeHistory(db, RESOLVER, 50)).toMatchObject([{ event: "x_old", quoteId: oldSettled }]);

    // A run repeated archives nothing more.
    const third = await retain([db], env.ARCHIVE, localConfig, now);
    expect([...third.unsubmitted, ...third.submitted]).toEqual([]);
  });

  it("reads each batch through the partial index of its kind, oldest first", async () => {
    for (const [kind, condition] of [
      ["unsubmitted", "claimed_at IS NULL AND status IN ('expired', 'cancelled', 'failed')"],
      ["submitted", "claimed_at IS NOT NULL AND status IN ('settled', 'failed', 'expired')"],
    ]) {
      const { results } = await db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT quote_id FROM quotes q WHERE ${condition} AND updated_at <= ?1
           ORDER BY updated_at, quote_id LIMIT ?2`,
        )
        .bind(iso(Date.now()), 10)
        .all<{ detail: string }>();
      expect(results.map((r) => r.detail)).toEqual([expect.stringContaining(`USING INDEX quotes_${kind}_ended`)]);
    }
  });
});

describe("the keeper's retention job", () => {
  const stub = () => env.KEEPER.get(env.KEEPER.idFromName(`retention-${crypto.randomUUID()}`));
  const retentionRow = (keeper: ReturnType<typeof stub>) =>
    runInDurableObject(keeper, (_: KeeperDO, state) =>
      state.storage.sql
        .exec<{ every_ms: number; next_at: number }>("SELECT * FROM keeper_schedule WHERE job = 'retention'")
        .one(),
    );

  it("runs hourly from the schedule, archives what is past retention, and comes back soon while a backlog is left", async () => {
    const keeper = stub();
    const woke = Date.now();
    const row = await retentionRow(keeper);
    expect(row.every_ms).toBe(RETENTION_EVERY_MS);
    expect(row.next_at).toBeGreaterThanOrEqual(woke + RETENTION_EVERY_MS - 1_000);

    // More than one run's bound of quotes that expired 8 days ago, never submitted.
    const old = Date.now() - 8 * DAY;
    const count = ARCHIVE_BATCH * ARCHIVE_BATCHES + 10;
    await flood(count, () => ({ status: "expired", quotedAt: iso(old), expiresAt: iso(old + 30_000) }));
    await runInDurableObject(keeper, (_: KeeperDO, state) => {
      state.storage.sql.exec("UPDATE keeper_schedule SET next_at = 0 WHERE job = 'retention'");
    });
    const ran = Date.now();
    expect(await runDurableObjectAlarm(keeper)).toBe(true);
    // The run goes on behind the alarm: once it is done, the next is RETENTION_BACKLOG_MS away, not an hour.
    const nextRun = await eventually(async () => {
      const { next_at } = await retentionRow(keeper);
      expect(next_at).toBeLessThan(ran + RETENTION_EVERY_MS);
      return next_at;
    });
    expect(nextRun).toBeGreaterThanOrEqual(ran + RETENTION_BACKLOG_MS);
    expect(nextRun).toBeLessThanOrEqual(Date.now() + RETENTION_BACKLOG_MS);
    const left = await db.prepare("SELECT COUNT(*) AS n FROM quotes WHERE quoted_at = ?").bind(iso(old)).first();
    expect(left).toEqual({ n: 10 });
  }, 20_000);
});
