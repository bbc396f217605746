/**
 * `db`, but every batch it runs is also shown to `seen` (its statements, then D1's results), so a test can
 * tell how a write was split into batches. Everything else is `db`'s own.
 */
export function watchingBatches(
  db: D1Database,
  seen: (statements: D1PreparedStatement[], results: D1Result[]) => void,
): D1Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          seen(statements, results);
          return results;
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
