import { describe, expect, it } from "vitest";
import { refuse } from "../../src/errors";
import { answerOf, type Check, firstRefusal } from "../../src/keeper/checks";
import { keeperRefusal } from "../../src/keeper/outcomes";
import { chainChecks, keyChecks } from "../../src/keeper/quote-checks";
import { trialChecks } from "../../src/keeper/trial";

const refusal = (code: string) => refuse(409, code, code);

describe("the keeper's checks", () => {
  it("answers the first check that refuses, in order, and runs none after it", async () => {
    const ran: string[] = [];
    const check = (name: string, refuses: boolean): Check<number> => ({
      name,
      verdict: () => {
        ran.push(name);
        return refuses ? refusal(name) : null;
      },
    });
    const checks = [check("a", false), check("b", true), check("c", true)];
    expect(await firstRefusal(checks, 0)).toMatchObject({ code: "b" });
    expect(ran).toEqual(["a", "b"]);
  });

  it("passes a submission every check passes, awaiting the checks that read", async () => {
    const checks: Check<number>[] = [
      { name: "sync", verdict: () => null },
      { name: "async", verdict: async (n) => (n > 1 ? refusal("async") : null) },
    ];
    expect(await firstRefusal(checks, 1)).toBeNull();
    expect(await firstRefusal(checks, 2)).toMatchObject({ code: "async" });
  });

  it("records an answer given as a function only when it is answered", async () => {
    let recorded = 0;
    const later = async () => {
      recorded += 1;
      return refusal("requote");
    };
    const verdict = await firstRefusal([{ name: "requote", verdict: () => later }], 0);
    expect(recorded).toBe(0);
    expect(await answerOf(verdict ?? refusal("none"))).toMatchObject({ code: "requote" });
    expect(recorded).toBe(1);
  });

  it("runs the checks in the order docs/settlement.md lists", () => {
    expect(keyChecks.map((c) => c.name)).toEqual([
      "key_for_this_quote",
      "not_a_repeat",
      "key_not_taken",
      "not_a_stored_repeat",
      "same_chain",
    ]);
    expect(chainChecks.map((c) => c.name)).toEqual([
      "taker_part",
      "witness_min_received",
      "keeper_not_paused",
      "quote_not_expired",
      "quote_open",
      "fill_not_on_its_way",
      "quote_in_time",
      "keeper_configured",
    ]);
    expect(trialChecks.map((c) => c.name)).toEqual([
      "taker_under_limit",
      "taker_signature",
      "taker_counted",
      "fill_simulates",
      "quote_claimed",
    ]);
  });

  it("gives each refusal code its one status", () => {
    expect(keeperRefusal("quote_not_open", "m")).toMatchObject({ status: 409, code: "quote_not_open" });
    expect(keeperRefusal("taker_not_ready", "m")).toMatchObject({ status: 400 });
    expect(keeperRefusal("not_leader", "m")).toMatchObject({ status: 503 });
  });
});
