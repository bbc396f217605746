import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SNAPSHOT_KEY } from "../../durable-objects/oracle";
import type { Snapshot } from "../../src/oracle/snapshot";
import type { SourceValue } from "../../src/oracle/types";
import { ageLastRound, failing, healthy, oracleNamed, snapshotOf } from "../support/oracle-helpers";

type OracleStub = ReturnType<typeof oracleNamed>;

/** Rewrites the stored round, as if the rounds before had gone as `edit` says. */
const editLastRound = (stub: OracleStub, edit: (round: Snapshot) => Snapshot) =>
  runInDurableObject(stub, (_, state) => {
    const round = state.storage.kv.get<Snapshot>(SNAPSHOT_KEY);
    if (!round) throw new Error("no round yet");
    state.storage.kv.put(SNAPSHOT_KEY, edit(round));
  });

describe("GET /v1/rates: every source with its figure's true age", () => {
  it("ages a figure from the source's own time, or from when the relay received it, at the time of the answer", async () => {
    const oracle = oracleNamed("source-ages");
    await oracle.rates();
    // The same round read 4 s later (still under 10 s old: no new poll): every figure is 4 s older.
    await editLastRound(oracle, (round) => ({
      ...round,
      at: round.at - 4_000,
      sources: round.sources.map((s) => ({ ...s, at: s.at - 4_000 })),
    }));
    const { sources } = await oracle.rates();
    const age = (name: string) => sources.find((s) => s.name === name)?.ageSeconds;
    // remitano and coinbase give no time of their own: their age is since the relay received them.
    for (const name of ["remitano", "coinbase-eth", "kraken-sol"]) {
      expect(age(name)).toBeGreaterThanOrEqual(4);
      expect(age(name)).toBeLessThanOrEqual(6);
    }
    // quidax dates its ticker itself, republished as it was fetched.
    expect(age("quidax")).toBeGreaterThanOrEqual(4);
  });

  it("lists a failing source with its last good figure and its age, in unavailable too, and never in a band", async () => {
    const oracle = oracleNamed("source-last-good");
    await oracle.rates();
    // quidax-down never answers; as if it had answered 30 s ago, before it started failing.
    const answeredAt = Date.now() - 30_000;
    const lastGood: SourceValue = { name: "quidax-down", value: 1_500, bid: 1_499, ask: 1_501, at: answeredAt };
    await editLastRound(oracle, (round) => ({ ...round, sources: [...round.sources, lastGood] }));
    await ageLastRound(oracle);

    const rates = await oracle.rates();
    expect(rates.unavailable).toEqual(failing);
    const shown = rates.sources.find((s) => s.name === "quidax-down");
    expect(shown).toMatchObject({ value: 1_500, bid: 1_499, ask: 1_501 });
    expect(shown?.ageSeconds).toBeGreaterThanOrEqual(30);
    // Its figure is near the market, yet the band is made of the healthy sources alone.
    expect(rates.bands.filter((b) => b.corridor !== null).every((b) => b.sources === healthy.length)).toBe(true);

    // Round after round while it fails, the same figure, older.
    await ageLastRound(oracle);
    const later = await oracle.rates();
    expect(later.sources.find((s) => s.name === "quidax-down")).toMatchObject({ value: 1_500 });
    expect((await snapshotOf(oracle))?.sources.find((s) => s.name === "quidax-down")?.at).toBe(answeredAt);
  });
});
