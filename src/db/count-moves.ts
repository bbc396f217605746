import { type LevelDayRow, levelDaysStatement } from "./level-days";
import { COUNTER_COLUMNS, type Counter, countStatement, type DayCounts } from "./resolver-days";

/**
 * The resolvers' counts of a records database other than `DB` moved into `DB`'s (migrations/0027 and 0028;
 * docs/capacity.md, "Records by corridor"). A corridor's write-behind sums its auctions' counters into its
 * records database with their quotes, its level samples are counted there by day (`level_days`), and the
 * keeper counts a settlement step where it writes the step (the count's condition, the execution's state,
 * is read in the same atomic batch); the leader's job moves them every 10 s, so `DB` takes one batch a
 * database, not one a corridor's write. A move is two atomic batches: in the records database its rows
 * leave `resolver_days` and `level_days` for one `count_moves` row; in `DB` they are added under the move's
 * id (`written_behind`), so a move retried after either half is added once.
 */

const COUNTERS = Object.keys(COUNTER_COLUMNS) as Counter[];
const AS_JSON = `json_object('address', address, 'day', day, ${COUNTERS.map((c) => `'${c}', ${COUNTER_COLUMNS[c]}`).join(", ")})`;

const LEVEL_JSON =
  "json_object('resolver', resolver, 'corridor', corridor, 'day', day, 'bucketBps', bucket_bps, 'samples', samples)";

type MovedRow = { address: string; day: string } & Record<Counter, number>;

/** Moves every count `records` holds into `main`; the rows moved. */
export async function moveCounts(records: D1Database, main: D1Database, now: string): Promise<number> {
  await records.batch([
    records
      .prepare(
        `INSERT INTO count_moves (id, rows, levels, created_at)
         SELECT ?1, (SELECT json_group_array(${AS_JSON}) FROM resolver_days), (SELECT json_group_array(${LEVEL_JSON})
         FROM level_days), ?2 WHERE EXISTS (SELECT 1 FROM resolver_days) OR EXISTS (SELECT 1 FROM level_days)`,
      )
      .bind(crypto.randomUUID(), now),
    records.prepare("DELETE FROM resolver_days"),
    records.prepare("DELETE FROM level_days"),
  ]);
  const { results } = await records
    .prepare("SELECT id, rows, levels FROM count_moves ORDER BY created_at, id")
    .all<{ id: string; rows: string; levels: string }>();
  let moved = 0;
  for (const move of results) {
    const rows = JSON.parse(move.rows) as MovedRow[];
    const levels = JSON.parse(move.levels) as LevelDayRow[];
    const added = rows.map((r) => {
      const counts: DayCounts = Object.fromEntries(COUNTERS.map((c) => [c, r[c]]));
      return countStatement(main, r.address, counts, `${r.day}T00:00:00.000Z`);
    });
    if (levels.length > 0) added.push(levelDaysStatement(main, levels));
    try {
      await main.batch([
        main.prepare("INSERT INTO written_behind (id, written_at) VALUES (?, ?)").bind(move.id, now),
        ...added,
      ]);
    } catch (e) {
      const done = await main.prepare("SELECT 1 AS n FROM written_behind WHERE id = ?").bind(move.id).first();
      if (!done) throw e;
    }
    await records.prepare("DELETE FROM count_moves WHERE id = ?").bind(move.id).run();
    moved += rows.length + levels.length;
  }
  return moved;
}
