/**
 * D1's bytes per quote (docs/capacity.md, "Storage"): `npm run measure:d1` starts `wrangler dev` with two
 * reference resolvers, asks QUOTES quotes (each answered by both), lets every one expire (read through
 * `GET /v1/quotes/{id}`, which records the expiry as the keeper's sweep would), and reads the local D1
 * file's pages by table and index with SQLite's `dbstat` before and after: the bytes a quote, an offer
 * and a timeline event cost D1 over the whole life of a quote never submitted, indexes included.
 * Needs the `sqlite3` command-line shell.
 */

import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Quote } from "../src/schemas/quote";
import { startRelay } from "../test/e2e/harness";
import { clientHeaders } from "./clients";
import { benchConfig, CNGN, ONE_CORRIDOR, SELL_AMOUNT, taker, withFleet } from "./rfq-relay";

const QUOTES = Number(process.env.MEASURE_QUOTES ?? 300);
const BIDDERS = 2;
/** Takers asking at once: enough to be quick, few enough that every auction gets both bids. */
const CONCURRENCY = 4;

/** Bytes of each table with its indexes, from the pages `dbstat` counts for each. */
type Sizes = Map<string, number>;

/**
 * The local D1 database's file under wrangler's state directory: the one migrated, holding `quotes` (the
 * local configuration keeps every corridor's records in `DB`; another binding's file, if made, has none).
 */
async function d1File(state: string): Promise<string> {
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sqlite")).map((f) => join(dir, f));
  const file = files.find((f) => sqlite(f, "SELECT name FROM sqlite_master WHERE name = 'quotes'") !== "");
  if (!file) throw new Error(`no migrated D1 file in ${dir}`);
  return file;
}

const sqlite = (file: string, sql: string) =>
  execFileSync("sqlite3", ["-readonly", "-json", file, sql], { encoding: "utf8" }).trim();

function sizes(file: string): Sizes {
  const rows = JSON.parse(
    sqlite(
      file,
      `SELECT COALESCE(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes
       FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl`,
    ) || "[]",
  ) as { tbl: string; bytes: number }[];
  return new Map(rows.map((r) => [r.tbl, r.bytes]));
}

const count = (file: string, table: string) =>
  (JSON.parse(sqlite(file, `SELECT COUNT(*) AS n FROM ${table}`)) as { n: number }[])[0]?.n ?? 0;

async function ask(base: string, i: number): Promise<Quote> {
  const res = await fetch(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(i) },
    body: JSON.stringify({ sellToken: CNGN, buyToken: ONE_CORRIDOR[0], sellAmount: SELL_AMOUNT, taker: taker(i) }),
  });
  if (res.status !== 200) throw new Error(`quote ${i}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Quote;
}

const state = await mkdtemp(join(tmpdir(), "relay-d1-bytes-"));
const relay = await startRelay({ persistTo: state, vars: { RELAY_CONFIG: JSON.stringify(benchConfig()) } });
try {
  const file = await d1File(state);
  const quotes = await withFleet(relay.url, BIDDERS, async () => {
    const before = sizes(file);
    const asked: Quote[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < QUOTES; i = next++) asked.push(await ask(relay.url, i));
      }),
    );
    return { before, asked };
  });
  const short = quotes.asked.filter((q) => q.offers.length !== BIDDERS).length;
  // Every quote past its expiry, then read: the read records `expired` with its timeline event.
  const lastExpiry = Math.max(...quotes.asked.map((q) => Date.parse(q.expiresAt)));
  await new Promise((r) => setTimeout(r, Math.max(0, lastExpiry - Date.now()) + 1_000));
  for (const q of quotes.asked) await fetch(`${relay.url}/v1/quotes/${q.quoteId}`);
  const after = sizes(file);
  const rows = { quotes: count(file, "quotes"), offers: count(file, "offers"), events: count(file, "timeline_events") };
  const delta = (t: string) => (after.get(t) ?? 0) - (quotes.before.get(t) ?? 0);
  const tables = [...new Set([...after.keys(), ...quotes.before.keys()])].filter((t) => delta(t) !== 0);
  const total = tables.reduce((n, t) => n + delta(t), 0);
  const per = (bytes: number, n: number) => (n === 0 ? "-" : (bytes / n).toFixed(0));
  console.log(
    `${rows.quotes} quotes (${short} with fewer than ${BIDDERS} offers), ${rows.offers} offers, ${rows.events} timeline events`,
  );
  console.log("table (with its indexes)          bytes    per quote");
  for (const t of tables.sort((a, b) => delta(b) - delta(a)))
    console.log(`${t.padEnd(32)} ${String(delta(t)).padStart(9)} ${per(delta(t), rows.quotes).padStart(10)}`);
  console.log(`D1 bytes per quote:          ${per(total, rows.quotes)}`);
  console.log(`  the quote's row:           ${per(delta("quotes"), rows.quotes)}`);
  console.log(`  per offer:                 ${per(delta("offers"), rows.offers)}`);
  console.log(`  per timeline event:        ${per(delta("timeline_events"), rows.events)}`);
} finally {
  await relay.stop();
  await rm(state, { recursive: true, force: true });
}
