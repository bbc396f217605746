import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RECOMPUTE_INTERVAL_MS } from "../../src/oracle/activity";
import { ageLastRound, alarmOf, corridors, expectedBand, oracleNamed, snapshotOf } from "../support/oracle-helpers";

describe("the oracle's alarm", () => {
  it("is armed by a read, one interval after the round the read made", async () => {
    const oracle = oracleNamed("alarm-armed");
    expect(await alarmOf(oracle)).toBeNull();
    await oracle.rates();
    const round = await snapshotOf(oracle);
    expect(round).not.toBeNull();
    expect(await alarmOf(oracle)).toBe((round?.at ?? 0) + RECOMPUTE_INTERVAL_MS);
  });

  it("recomputes when it fires, and arms the next round", async () => {
    const oracle = oracleNamed("alarm-fires");
    await oracle.rates();
    const earlier = await ageLastRound(oracle);
    expect(await runDurableObjectAlarm(oracle)).toBe(true);
    const round = await snapshotOf(oracle);
    expect(round?.at).toBeGreaterThanOrEqual(earlier + RECOMPUTE_INTERVAL_MS);
    expect(round?.bands["USD/NGN"]).toStrictEqual({ ...expectedBand(), at: round?.at });
    expect(await alarmOf(oracle)).toBe((round?.at ?? 0) + RECOMPUTE_INTERVAL_MS);
  });

  it("does not poll twice for one round when delivered again (alarms are at-least-once)", async () => {
    const oracle = oracleNamed("alarm-twice");
    await oracle.rates();
    await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    const first = await snapshotOf(oracle);
    await runInDurableObject(oracle, (instance) => instance.alarm());
    expect((await snapshotOf(oracle))?.at).toBe(first?.at);
    expect(await alarmOf(oracle)).toBe((first?.at ?? 0) + RECOMPUTE_INTERVAL_MS);
  });

  it("answers a band read with the band of the corridor's pair, and null for a corridor it does not map", async () => {
    const oracle = oracleNamed("alarm-band");
    const [corridor] = corridors();
    const band = await oracle.band(corridor?.key ?? "");
    const round = await snapshotOf(oracle);
    expect(band).toStrictEqual({ ...expectedBand(), at: round?.at });
    expect(await oracle.band("31337:0x0000000000000000000000000000000000000001:0x2")).toBeNull();
  });
});
