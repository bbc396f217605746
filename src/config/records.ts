import { corridorTag } from "../chains";
import { isDatabase } from "../db";
import { tagOf } from "../ids";
import { ConfigError } from "./load";
import type { RelayConfig } from "./schema";

/** What the records' databases are looked up in: the Worker's env, `DB` and the bindings `records` names. */
export type DatabaseBindings = { DB: D1Database };

/**
 * The D1 databases a relay's records are split over (docs/capacity.md, "Records by corridor"): `of` is the
 * database of a corridor (by its key) or of a record (by a quote's, execution's or offer's id, whose tag
 * names its corridor, src/ids.ts); `all` is every one of them, `DB` first, each once.
 */
export interface RecordsDatabases {
  of(corridorOrId: string): D1Database;
  readonly all: readonly D1Database[];
}

const built = new WeakMap<RelayConfig, WeakMap<object, RecordsDatabases>>();

/**
 * The records' databases of `config` in `env`, built once per configuration and env. A binding `records`
 * names that the Worker does not have is a ConfigError (answered 500 `config_invalid`, as a configuration
 * that does not parse is), never a record written to the wrong database.
 */
export function recordsDatabases(env: DatabaseBindings, config: RelayConfig): RecordsDatabases {
  const byEnv = built.get(config) ?? new WeakMap();
  built.set(config, byEnv);
  const found = byEnv.get(env);
  if (found) return found;
  const made = makeDatabases(env, config);
  byEnv.set(env, made);
  return made;
}

/** The database holding the records of a corridor (its key) or of a tagged id (src/ids.ts). */
export const recordsDb = (env: DatabaseBindings, config: RelayConfig, corridorOrId: string): D1Database =>
  recordsDatabases(env, config).of(corridorOrId);

function makeDatabases(env: DatabaseBindings, config: RelayConfig): RecordsDatabases {
  const byKey = new Map<string, D1Database>();
  const byTag = new Map<string, D1Database>();
  const all: D1Database[] = [env.DB];
  for (const { binding, corridors } of config.records) {
    const db = (env as unknown as Record<string, unknown>)[binding];
    if (!isDatabase(db)) {
      throw new ConfigError(`invalid relay configuration: records: ${binding} is not a D1 binding of the Worker`);
    }
    all.push(db);
    for (const key of corridors) {
      byKey.set(key, db);
      byTag.set(corridorTag(key), db);
    }
  }
  // An id whose tag names no listed corridor (another corridor's, or none) is in `DB`.
  const of = (corridorOrId: string) =>
    (corridorOrId.includes(":") ? byKey.get(corridorOrId) : byTag.get(tagOf(corridorOrId))) ?? env.DB;
  return { of, all };
}
