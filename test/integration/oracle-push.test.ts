import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Band } from "../../src/schemas/quote";
import { ageLastRound, corridors, expectedBand, oracleNamed, snapshotOf } from "../support/oracle-helpers";

/** The band a corridor last received, as CorridorDO.publishBand stores it. */
const bandOf = (corridorKey: string) =>
  runInDurableObject(env.CORRIDOR.get(env.CORRIDOR.idFromName(corridorKey)), (_, state) =>
    state.storage.kv.get<Band>("band"),
  );

describe("pushing bands to corridors", () => {
  it("answers a subscription with the band now", async () => {
    const oracle = oracleNamed("push-answer");
    const [corridor] = corridors();
    const band = await oracle.subscribe(corridor?.key ?? "");
    expect(band).toStrictEqual({ ...expectedBand(), at: (await snapshotOf(oracle))?.at });
  });

  it("sends each new round's band to every subscribed corridor, and to no other", async () => {
    const oracle = oracleNamed("push-rounds");
    const [evm, solana] = corridors();
    const key = evm?.key ?? "";
    await oracle.subscribe(key);
    await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    const round = await snapshotOf(oracle);
    expect(await bandOf(key)).toStrictEqual({ ...expectedBand(), at: round?.at });
    expect(await bandOf(solana?.key ?? "")).toBeUndefined();

    await oracle.subscribe(solana?.key ?? "");
    await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    const next = await snapshotOf(oracle);
    expect(next?.at).not.toBe(round?.at);
    expect((await bandOf(key))?.at).toBe(next?.at);
    expect((await bandOf(solana?.key ?? ""))?.at).toBe(next?.at);
  });

  it("takes no subscription for a corridor it has no band for", async () => {
    const oracle = oracleNamed("push-unknown");
    expect(await oracle.subscribe("31337:0x0000000000000000000000000000000000000001:0x2")).toBeNull();
    expect(await snapshotOf(oracle)).toBeNull();
  });
});
