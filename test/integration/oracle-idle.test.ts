import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { noActivity } from "../../src/oracle/activity";
import {
  activityOf,
  ageLastRound,
  alarmOf,
  corridors,
  oracleNamed,
  setActivity,
  snapshotOf,
} from "../support/oracle-helpers";

describe("the oracle when nobody uses it", () => {
  it("stops: the alarm neither polls nor re-arms once reads have lapsed", async () => {
    const oracle = oracleNamed("idle-reads");
    await oracle.rates();
    const lastAt = await ageLastRound(oracle);
    await setActivity(oracle, { readUntil: Date.now() - 1, subscriptions: {} });
    expect(await runDurableObjectAlarm(oracle)).toBe(true);
    expect((await snapshotOf(oracle))?.at).toBe(lastAt);
    expect(await alarmOf(oracle)).toBeNull();
  });

  it("stops once a corridor's subscription lapses unrenewed, and forgets it", async () => {
    const oracle = oracleNamed("idle-subscription");
    const [corridor] = corridors();
    const key = corridor?.key ?? "";
    await oracle.subscribe(key);
    await setActivity(oracle, { readUntil: 0, subscriptions: { [key]: Date.now() - 1 } });
    await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    expect(await alarmOf(oracle)).toBeNull();
    expect(await activityOf(oracle)).toStrictEqual(noActivity());
  });

  it("keeps running for a live subscription even without reads", async () => {
    const oracle = oracleNamed("idle-subscribed");
    const [corridor] = corridors();
    await oracle.subscribe(corridor?.key ?? "");
    const activity = await activityOf(oracle);
    expect(activity?.readUntil).toBe(0);
    const lastAt = await ageLastRound(oracle);
    await runDurableObjectAlarm(oracle);
    expect((await snapshotOf(oracle))?.at).toBeGreaterThan(lastAt);
    expect(await alarmOf(oracle)).not.toBeNull();
  });

  it("starts again on the next read", async () => {
    const oracle = oracleNamed("idle-restart");
    await oracle.rates();
    await setActivity(oracle, noActivity());
    await runDurableObjectAlarm(oracle);
    expect(await alarmOf(oracle)).toBeNull();
    await oracle.rates();
    expect(await alarmOf(oracle)).not.toBeNull();
  });
});
