/**
 * A knob for benchmarks (bench/README.md): with `SIMULATED_D1_LATENCY_MS` set, every D1 call of the Worker
 * and its objects waits that long first, as if D1's primary were far away. Unset or 0, `env` is returned
 * as it is and nothing is wrapped.
 */
export function withD1Latency<E extends { DB: D1Database; SIMULATED_D1_LATENCY_MS?: string }>(env: E): E {
  const ms = Number(env.SIMULATED_D1_LATENCY_MS ?? 0);
  if (!Number.isFinite(ms) || ms <= 0) return env;
  // Every D1 binding: `DB` and the records databases (docs/capacity.md, "Records by corridor").
  const databases = Object.entries(env).filter(([, value]) => isDatabase(value)) as [string, D1Database][];
  return { ...env, ...Object.fromEntries(databases.map(([name, db]) => [name, delayedOnce(db, ms)])) };
}

/** Whether an env's binding is a D1 database (what `records` names is checked by it, src/config/records.ts). */
export const isDatabase = (value: unknown): value is D1Database =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as D1Database).prepare === "function" &&
  typeof (value as D1Database).batch === "function";

/** `db` delayed by `ms`, wrapped once. */
function delayedOnce(db: D1Database, ms: number): D1Database {
  const cached = wrapped.get(db);
  if (cached) return cached;
  const made = delayed(db, ms);
  wrapped.set(db, made);
  return made;
}

const wrapped = new WeakMap<D1Database, D1Database>();
/** The real statement behind each delayed one, for `batch`, which takes only real statements. */
const targets = new WeakMap<object, D1PreparedStatement>();
const RUNS = new Set(["first", "all", "run", "raw"]);

function delayed(db: D1Database, ms: number): D1Database {
  const wait = () => new Promise((resolve) => setTimeout(resolve, ms));
  const statement = (s: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(s, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        if (!RUNS.has(String(prop))) return value.bind(target);
        return async (...args: unknown[]) => {
          await wait();
          return value.apply(target, args);
        };
      },
    });
    targets.set(proxy, s);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          await wait();
          return target.batch(statements.map((s) => targets.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        await wait();
        return value.apply(target, args);
      };
    },
  });
}
