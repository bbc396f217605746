import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { type ArchiveBucket, archiveCutoffs, archivePass } from "../../src/archive";
import { localConfig } from "../../src/config/local";
import { insertQuoteStatements } from "../../src/db/quote-writes";
import { newId } from "../../src/ids";
import { sampleOffers, sampleQuote, sampleTimeline, seedExecution, seedQuote } from "../support/records";

/** The archive (docs/operations.md, "Archive"): ended quotes leave D1 for R2 and still read by id. */

const app = createApp();
const db = env.DB;
const HOUR = 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const get = async (path: string) => {
  const res = await app.request(path, {}, env);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const archiveNow = (body: unknown, token = "test-admin-token") =>
  app.request(
    "/v1/admin/archive",
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    },
    env,
  );

const inD1 = async (table: string, column: string, id: string) =>
  (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(id).first<{ n: number }>())?.n;

/** The quote ids the archive's objects under `prefix` hold, a line each, in the order written. */
async function archivedIds(prefix: string): Promise<string[]> {
  const listed = await env.ARCHIVE.list({ prefix });
  const ids: string[] = [];
  for (const o of listed.objects) {
    const text = (await (await env.ARCHIVE.get(o.key))?.text()) ?? "";
    for (const line of text.split("\n").filter(Boolean))
      ids.push((JSON.parse(line) as { quote: { quoteId: string } }).quote.quoteId);
  }
  return ids;
}

describe("POST /v1/admin/archive", () => {
  it("archives an ended quote and its execution: both read as before with archived: true, and D1 holds neither", async () => {
    const ended = Date.now() - 2 * HOUR;
    const { quote } = await seedQuote(db, { status: "settled", final: true, quotedAt: iso(ended - 60_000) });
    const execution = await seedExecution(db, quote.quoteId);
    await db.batch([
      db
        .prepare("UPDATE quotes SET updated_at = ?2, claimed_at = ?2 WHERE quote_id = ?1")
        .bind(quote.quoteId, iso(ended)),
      db
        .prepare("UPDATE executions SET status = 'settled', gas_used = '150000' WHERE execution_id = ?")
        .bind(execution.executionId),
    ]);
    const quoteBefore = await get(`/v1/quotes/${quote.quoteId}`);
    const executionBefore = await get(`/v1/executions/${execution.executionId}`);
    expect(quoteBefore.status).toBe(200);
    expect(executionBefore.status).toBe(200);

    // Runs until nothing ended before now is left in D1.
    for (;;) {
      const res = await archiveNow({ before: iso(Date.now()) });
      expect(res.status).toBe(200);
      const run = (await res.json()) as { archived: number; more: boolean; completeFrom: string | null };
      if (!run.more) {
        expect(run.completeFrom !== null && run.completeFrom >= iso(ended)).toBe(true);
        break;
      }
    }

    for (const table of ["quotes", "offers", "timeline_events", "executions"])
      expect(await inD1(table, "quote_id", quote.quoteId)).toBe(0);
    const quoteAfter = await get(`/v1/quotes/${quote.quoteId}`);
    expect(quoteAfter).toEqual({ status: 200, body: { ...quoteBefore.body, archived: true } });
    const executionAfter = await get(`/v1/executions/${execution.executionId}`);
    expect(executionAfter).toEqual({
      status: 200,
      body: {
        ...executionBefore.body,
        lifecycle: { ...(executionBefore.body.lifecycle as object), archived: true },
        archived: true,
      },
    });
    // Its object is the corridor's (the id's tag) and the day it ended.
    const tag = quote.quoteId.slice(2, 10);
    expect(await archivedIds(`archive/${tag}/${iso(ended).slice(0, 10)}/`)).toContain(quote.quoteId);
    // Lists say from when they are complete: after the last archived quote ended.
    const page = await get("/v1/quotes?limit=1");
    expect(page.body.completeFrom).toEqual(expect.any(String));
    expect((page.body.completeFrom as string) >= iso(ended)).toBe(true);
  });

  it.each([
    ["not a time", { before: "yesterday" }],
    ["a number", { before: 1_700_000_000_000 }],
    ["missing", {}],
  ])("answers 400 invalid_request on a time %s", async (_, body) => {
    const res = await archiveNow(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("answers 401 without the admin token", async () => {
    expect((await archiveNow({ before: iso(Date.now()) }, "wrong")).status).toBe(401);
  });
});

/** `count` quotes of corridor tag `tag`, never submitted, expired at `endedAt`. */
async function expiredQuotes(tag: string, count: number, endedAt: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const statements: D1PreparedStatement[] = [];
    for (let i = start; i < Math.min(count, start + 100); i++) {
      const quote = sampleQuote({
        quoteId: newId("q", tag),
        status: "expired",
        quotedAt: iso(endedAt - 30_000),
        expiresAt: iso(endedAt),
      });
      ids.push(quote.quoteId);
      statements.push(...insertQuoteStatements(db, quote, sampleOffers(quote), sampleTimeline(quote)));
    }
    await db.batch(statements);
  }
  await db.prepare("UPDATE quotes SET updated_at = ?2 WHERE substr(quote_id, 3, 8) = ?1").bind(tag, iso(endedAt)).run();
  return ids;
}

/** The archive bucket, made to fail at its `at`-th put: before the object is written, or once it is. */
function failingBucket(at: number, when: "before" | "after"): ArchiveBucket {
  let puts = 0;
  const put: ArchiveBucket["put"] = async (key, value, options) => {
    puts++;
    if (puts === at && when === "before") throw new Error("evicted before the put");
    const written = await env.ARCHIVE.put(key, value, options);
    if (puts === at && when === "after") throw new Error("crashed after the put, before D1 deleted");
    return written;
  };
  return { put, get: env.ARCHIVE.get.bind(env.ARCHIVE) } as ArchiveBucket;
}

describe("the archive job", () => {
  it("loses no record and writes none twice when runs stop before a put and between a put and D1's delete", async () => {
    const tag = "0a0b0c0d";
    const now = Date.now();
    const ids = await expiredQuotes(tag, 450, now - 5 * HOUR);
    const cutoffs = archiveCutoffs(localConfig.retention, now);
    const sizes = { batch: 200, batches: 10 };
    const leftInD1 = async () =>
      (
        await db
          .prepare("SELECT COUNT(*) AS n FROM quotes WHERE substr(quote_id, 3, 8) = ?")
          .bind(tag)
          .first<{ n: number }>()
      )?.n;

    // Evicted at its second batch's put: the first batch is archived, the second planned, nothing else moved.
    await expect(archivePass(db, failingBucket(2, "before"), cutoffs, sizes)).rejects.toThrow("evicted");
    expect(await leftInD1()).toBe(250);
    // The next run crashes once its first put (the planned batch, under its planned key) is written.
    await expect(archivePass(db, failingBucket(1, "after"), cutoffs, sizes)).rejects.toThrow("crashed");
    expect(await leftInD1()).toBe(250);
    // A run that is not stopped finishes the planned batch and the rest.
    const run = await archivePass(db, env.ARCHIVE, cutoffs, sizes);
    expect(run.unsubmitted).toEqual([200, 50]);
    expect(run.more).toBe(false);

    expect(await leftInD1()).toBe(0);
    const archived = await archivedIds(`archive/${tag}/`);
    expect(archived.length).toBe(450);
    expect(new Set(archived)).toEqual(new Set(ids));
    // Every one still reads by id.
    for (const id of [ids[0], ids[249], ids[449]]) {
      const read = await get(`/v1/quotes/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ quoteId: id, status: "expired", archived: true });
    }
    // A run repeated finds nothing more.
    const again = await archivePass(db, env.ARCHIVE, cutoffs, sizes);
    expect([...again.unsubmitted, ...again.submitted]).toEqual([]);
    expect((await archivedIds(`archive/${tag}/`)).length).toBe(450);
  });

  it("keeps D1's quotes younger than unfilledHours, and drops an archived quote's id after unfilledDays", async () => {
    const tag = "0e0f1011";
    const now = Date.now();
    const [young = ""] = await expiredQuotes(tag, 1, now - 1 * HOUR);
    const oldTag = "12131415";
    const [old = ""] = await expiredQuotes(oldTag, 1, now - 8 * 24 * HOUR);
    await archivePass(db, env.ARCHIVE, archiveCutoffs(localConfig.retention, now));
    expect(await inD1("quotes", "quote_id", young)).toBe(1);
    expect(await inD1("quotes", "quote_id", old)).toBe(0);
    // Archived 8 days after it ended, past unfilledDays (7): the same run dropped its id; its line stays in R2.
    expect((await get(`/v1/quotes/${old}`)).status).toBe(404);
    expect(await archivedIds(`archive/${oldTag}/`)).toEqual([old]);
  });
});
