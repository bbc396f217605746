import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readLevelCounts } from "../../src/db/level-days";
import { bucketOf } from "../../src/levels/honesty";

/** The statements of the migration whose name starts with `number`, those `keep` picks. */
const statements = (number: string, keep: (sql: string) => boolean) => {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith(number));
  if (!migration) throw new Error(`no migration ${number}`);
  return migration.queries.filter(keep).map((sql) => env.DB.prepare(sql));
};

describe("migrations/0020_level_days.sql", () => {
  it("counts each stored sample of level_samples in its day's bucket, as the relay buckets them, and drops the table", async () => {
    await env.DB.prepare("DELETE FROM level_days").run();
    // level_samples as 0019 made it, with samples on two UTC days.
    await env.DB.batch(statements("0019", () => true));
    const slippages = [-40, 0, 1, 2, 3, 5, 6, 20, 49, 50, 51, 100, 101, 999, 1_000, 4_999, 5_001, 10_000];
    const days = [Date.parse("2026-11-27T23:59:59.999Z"), Date.parse("2026-11-28T00:00:00Z")];
    const resolver = "0x00000000000000000000000000000000000000f1";
    await env.DB.batch(
      days.flatMap((at, d) =>
        slippages.map((bps, i) =>
          env.DB.prepare("INSERT INTO level_samples (resolver, quote_id, slippage_bps, at) VALUES (?, ?, ?, ?)").bind(
            resolver,
            `q_${d}_${i}`,
            bps,
            at,
          ),
        ),
      ),
    );
    // The migration's own statements past the new table and its index, which are already there.
    await env.DB.batch(statements("0020", (sql) => !/^CREATE/i.test(sql.replace(/^\s*--.*$/gm, "").trim())));

    const expected = new Map<number, number>();
    for (const bps of slippages) expected.set(bucketOf(bps), (expected.get(bucketOf(bps)) ?? 0) + 1);
    for (const day of ["2026-11-27", "2026-11-28"]) {
      const { results } = await env.DB.prepare(
        "SELECT bucket_bps AS bucketBps, samples FROM level_days WHERE resolver = ? AND day = ? ORDER BY bucket_bps",
      )
        .bind(resolver, day)
        .all<{ bucketBps: number; samples: number }>();
      expect(results).toEqual(
        [...expected].sort(([a], [b]) => a - b).map(([bucketBps, samples]) => ({ bucketBps, samples })),
      );
    }
    expect((await readLevelCounts(env.DB, resolver, "2026-11-27")).reduce((n, c) => n + c.samples, 0)).toBe(36);
    const table = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'level_samples'").first();
    expect(table).toBeNull();
  });
});
