import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Band } from "../../src/schemas/quote";
import { ageLastRound, corridors, oracleNamed, snapshotOf } from "../support/oracle-helpers";

describe("the oracle across eviction", () => {
  it("keeps its last round and its subscribers", async () => {
    const oracle = oracleNamed("eviction");
    const [corridor] = corridors();
    const key = corridor?.key ?? "";
    await oracle.subscribe(key);
    const before = await snapshotOf(oracle);

    await evictDurableObject(oracle);
    // Under 10 s later, a read is answered from the stored round rather than a new poll.
    expect((await oracle.rates()).bands[0]?.at).toBe(before?.at);

    await evictDurableObject(oracle);
    await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    const round = await snapshotOf(oracle);
    const pushed = await runInDurableObject(env.CORRIDOR.get(env.CORRIDOR.idFromName(key)), (_, state) =>
      state.storage.kv.get<Band>("band"),
    );
    expect(pushed?.at).toBe(round?.at);
  });
});
