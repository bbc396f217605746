import { abortAllDurableObjects, applyD1Migrations, env, reset } from "cloudflare:test";

/**
 * Each file starts from an empty relay. The files of a project share one runtime (vitest.config.ts,
 * `isolate: false`), so what another file left is dropped here: every binding's data (Durable Object
 * storage, D1), then every running instance with its sockets; then D1 is migrated again.
 */
await reset();
await abortAllDurableObjects();
// Every records database gets the same migrations (docs/capacity.md, "Records by corridor").
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
if (env.RECORDS_2) await applyD1Migrations(env.RECORDS_2, env.TEST_MIGRATIONS);
