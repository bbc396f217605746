import { describe, expect, it } from "vitest";
import type { Refusal } from "../../src/errors";
import { type ClientAsk, SharedCounts } from "../../src/limits";
import { Limits } from "../../src/schemas";

/** SharedCounts on a fake clock, at the default limits unless a test says otherwise. */
function counts(over: Partial<Limits> = {}) {
  const clock = { now: 0 };
  const limits = Limits.parse(over);
  return {
    shared: new SharedCounts(
      () => limits,
      () => clock.now,
    ),
    clock,
    limits,
  };
}

const refused: Refusal = { kind: "refused", status: 400, code: "bad_signature", message: "no", extras: {} };
const accepted = { kind: "submitted" as const };
const notLeader: Refusal = { kind: "refused", status: 503, code: "not_leader", message: "later", extras: {} };

/** A submission held open until `release` is called. */
function held<T>(outcome: T) {
  let release = () => {};
  const done = new Promise<T>((resolve) => {
    release = () => resolve(outcome);
  });
  return { run: () => done, release: () => release() };
}

const ip = (n: number): ClientAsk => ({ client: `ip:203.0.113.${n}` });
const v6 = (site: number, subnet: number): ClientAsk => ({
  client: `ip:2001:0db8:${site.toString(16).padStart(4, "0")}:${subnet.toString(16).padStart(4, "0")}::/64`,
  network: `net:2001:0db8:${site.toString(16).padStart(4, "0")}::/48`,
});

describe("SharedCounts.submission", () => {
  it("counts only refusals for what was sent: any number of valid ones in flight pass, up to the in-flight cap", async () => {
    const { shared, limits } = counts();
    const open = Array.from({ length: limits.submissionsInFlightPerClient }, () => held(accepted));
    const answers = open.map((h) => shared.submission(ip(1), h.run));
    const over = await shared.submission(ip(1), async () => accepted);
    expect(over).toMatchObject({ kind: "refused", status: 429, code: "rate_limited" });
    for (const h of open) h.release();
    expect((await Promise.all(answers)).every((a) => a.kind === "submitted")).toBe(true);
    // Once they are answered the client has its whole cap again, and nothing was counted as a failure.
    expect(await shared.submission(ip(1), async () => accepted)).toEqual(accepted);
  });

  it("answers 429 past the client's refusals, before running anything; a 503 is not counted", async () => {
    const { shared, limits, clock } = counts();
    for (let i = 0; i < limits.failedSubmissionsPer10s; i++) await shared.submission(ip(2), async () => refused);
    await shared.submission(ip(2), async () => notLeader);
    let ran = false;
    const over = await shared.submission(ip(2), async () => {
      ran = true;
      return accepted;
    });
    expect(over).toMatchObject({ status: 429, extras: { retryAfter: 1 } });
    expect(ran).toBe(false);
    expect(await shared.submission(ip(3), async () => accepted)).toEqual(accepted);
    clock.now += 10_000;
    expect(await shared.submission(ip(2), async () => accepted)).toEqual(accepted);
  });

  it("holds a burst of junk sent at once to the cap in flight and counts it in full: its client waits for what went over", async () => {
    const { shared, clock } = counts({ failedSubmissionsPer10s: 20 });
    const burst = Array.from({ length: 60 }, () => held(refused));
    const answers = burst.map((h) => shared.submission(ip(4), h.run));
    for (const h of burst) h.release();
    // The 10 past the cap of 50 in flight are refused at once; the 50 taken are refused for what they sent.
    expect((await Promise.all(answers)).filter((a) => a === refused)).toHaveLength(50);
    // 50 refusals against 20 in 10 s: 30 over, so 15 s before one passes again.
    clock.now += 15_000;
    expect(await shared.submission(ip(4), async () => accepted)).toMatchObject({ status: 429 });
    clock.now += 500;
    expect(await shared.submission(ip(4), async () => accepted)).toEqual(accepted);
  });

  it("holds an IPv6 /48 to its budget across its /64s; another /48 is served", async () => {
    const { shared, limits } = counts();
    const perClient = limits.failedSubmissionsPer10s;
    const subnets = limits.networkFailedSubmissionsPer10s / perClient;
    for (let s = 0; s < subnets; s++) {
      for (let i = 0; i < perClient; i++) await shared.submission(v6(1, s), async () => refused);
    }
    expect(await shared.submission(v6(1, subnets), async () => accepted)).toMatchObject({
      status: 429,
      message: expect.stringContaining("/48"),
    });
    expect(await shared.submission(v6(2, 0), async () => accepted)).toEqual(accepted);
  });

  it("past the relay's budget admits only clients with no refusal of their own still counted", async () => {
    const { shared } = counts({ failedSubmissionsPer10s: 5, relayFailedSubmissionsPer10s: 10 });
    for (const n of [10, 11]) for (let i = 0; i < 5; i++) await shared.submission(ip(n), async () => refused);
    expect(await shared.submission(ip(12), async () => refused)).toEqual(refused);
    expect(await shared.submission(ip(12), async () => accepted)).toMatchObject({
      status: 429,
      message: expect.stringContaining("every client"),
    });
    expect(await shared.submission(ip(13), async () => accepted)).toEqual(accepted);
  });

  it("raises a key's refusals and in-flight cap by its quotas, and counts nothing without a client", async () => {
    const { shared } = counts();
    const key: ClientAsk = { client: "key:ak_1", quotas: { failedSubmissionsPer10s: 40 } };
    for (let i = 0; i < 40; i++) expect(await shared.submission(key, async () => refused)).toEqual(refused);
    expect(await shared.submission(key, async () => accepted)).toMatchObject({ status: 429 });
    for (let i = 0; i < 100; i++) await shared.submission(undefined, async () => refused);
    expect(await shared.submission(ip(20), async () => accepted)).toEqual(accepted);
  });
});

describe("SharedCounts.placement", () => {
  it("counts placements per client per minute, an IPv6 /48 behind its /64s, and a key's own quota", () => {
    const { shared, limits, clock } = counts();
    for (let i = 0; i < limits.limitOrdersPerMinute; i++) expect(shared.placement(ip(30))).toBeNull();
    expect(shared.placement(ip(30))).toMatchObject({ status: 429, extras: { retryAfter: 6 } });
    expect(shared.placement(ip(31))).toBeNull();
    const subnets = limits.networkLimitOrdersPerMinute / limits.limitOrdersPerMinute;
    for (let s = 0; s < subnets; s++) {
      for (let i = 0; i < limits.limitOrdersPerMinute; i++) expect(shared.placement(v6(3, s))).toBeNull();
    }
    expect(shared.placement(v6(3, subnets))).toMatchObject({ status: 429 });
    const key: ClientAsk = { client: "key:ak_2", quotas: { limitOrdersPerMinute: 30 } };
    for (let i = 0; i < 30; i++) expect(shared.placement(key)).toBeNull();
    expect(shared.placement(key)).toMatchObject({ status: 429 });
    clock.now += 60_000;
    expect(shared.placement(ip(30))).toBeNull();
  });
});
