/**
 * A knob for benchmarks (bench/README.md): with `SIMULATED_D1_LATENCY_MS` set, every D1 call of the Worker
 * and its objects waits that long first, as if D1's primary were far away. Unset or 0, `env` is returned
 * as it is and nothing is wrapped.
 */
export function withD1Latency<E extends { DB: D1Database; SIMULATED_D1_LATENCY_MS?: string }>(env: E): E {
  const ms = Number(env.SIMULATED_D1_LATENCY_MS ?? 0);
  if (!Number.isFinite(ms) || ms <= 0) return env;
  const cached = wrapped.get(env.DB);
  if (cached) return { ...env, DB: cached };
  const db = delayed(env.DB, ms);
  wrapped.set(env.DB, db);
  return { ...env, DB: db };
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
