import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { KeeperDO } from "../../durable-objects/keeper";
import { PRUNE_EVERY_MS } from "../../src/keeper/jobs";

/** The keeper object's one alarm over its schedule table (docs/settlement.md, "The keeper's alarm"). */
const stub = () => env.KEEPER.get(env.KEEPER.idFromName(`schedule-${crypto.randomUUID()}`));

const rows = (keeper: ReturnType<typeof stub>) =>
  runInDurableObject(keeper, (_: KeeperDO, state) =>
    state.storage.sql
      .exec<{ job: string; every_ms: number; next_at: number }>("SELECT * FROM keeper_schedule")
      .toArray(),
  );

describe("the keeper's schedule", () => {
  it("schedules the hourly prune on first wake, and no indexer while nothing is followed", async () => {
    const keeper = stub();
    const before = Date.now();
    const [prune, ...others] = await rows(keeper);
    expect(others).toEqual([]);
    expect(prune).toMatchObject({ job: "prune", every_ms: PRUNE_EVERY_MS });
    expect(prune?.next_at).toBeGreaterThanOrEqual(before + PRUNE_EVERY_MS - 1_000);
    const alarm = await runInDurableObject(keeper, (_: KeeperDO, state) => state.storage.getAlarm());
    expect(alarm).toBe(prune?.next_at);
  });

  it("runs the earliest job when the alarm fires, and arms the alarm for its next run", async () => {
    const keeper = stub();
    await rows(keeper);
    const started = Date.now();
    expect(await runDurableObjectAlarm(keeper)).toBe(true);
    const [prune] = await rows(keeper);
    expect(prune?.next_at).toBeGreaterThanOrEqual(started + PRUNE_EVERY_MS);
    const alarm = await runInDurableObject(keeper, (_: KeeperDO, state) => state.storage.getAlarm());
    expect(alarm).toBe(prune?.next_at);
  });
});
