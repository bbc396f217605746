import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executionMoveSql, inMoveFrom, quoteMoveSql } from "../../src/db/quote-moves";
import type { ExecutionStatus, QuoteStatus } from "../../src/schemas";
import {
  isOpen,
  OPEN_STATUSES,
  QUOTE_MOVES,
  QUOTE_TRANSITIONS,
  type QuoteMove,
  type QuoteMoveName,
} from "../../src/states/quote-states";

const MOVES = Object.entries(QUOTE_MOVES) as [QuoteMoveName, QuoteMove][];
const STATUSES = Object.keys(QUOTE_TRANSITIONS) as QuoteStatus[];

/** The quote's state machine as docs/api.md ("Quote lifetime") and docs/settlement.md ("Reorgs") tell it. */
const DOCUMENTED: Record<QuoteStatus, readonly QuoteStatus[]> = {
  quoted: ["signed", "submitted", "expired", "cancelled", "failed"],
  signed: ["submitted", "expired", "cancelled", "failed"],
  submitted: ["settled", "failed"],
  settled: ["submitted"],
  failed: [],
  expired: ["submitted"],
  cancelled: [],
};
const documented = (from: QuoteStatus, to: QuoteStatus) => DOCUMENTED[from].includes(to);
const pairs = (graph: Record<QuoteStatus, readonly QuoteStatus[]>) =>
  STATUSES.flatMap((from) => graph[from].map((to) => `${from}→${to}`)).sort();

describe("the quote's moves table", () => {
  it("makes exactly the documented status moves, and none other", () => {
    expect(pairs(QUOTE_TRANSITIONS)).toEqual(pairs(DOCUMENTED));
    for (const [name, move] of MOVES)
      for (const from of move.from)
        if (move.to !== null) expect(documented(from, move.to), `${name}: ${from} → ${move.to}`).toBe(true);
  });

  it("reaches every status from `quoted`, and every row applies somewhere", () => {
    const reached = new Set<QuoteStatus>(["quoted"]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [, move] of MOVES)
        if (move.to !== null && !reached.has(move.to) && move.from.some((s) => reached.has(s))) {
          reached.add(move.to);
          grew = true;
        }
    }
    expect([...reached].sort()).toEqual([...STATUSES].sort());
    for (const [name, move] of MOVES) expect(move.from.length, name).toBeGreaterThan(0);
  });

  it("has no move out of a terminal status (failed, cancelled), not even one that leaves the status", () => {
    const terminal = STATUSES.filter((s) => QUOTE_TRANSITIONS[s].length === 0);
    expect(terminal.sort()).toEqual(["cancelled", "failed"]);
    for (const [name, move] of MOVES) for (const s of terminal) expect(move.from, name).not.toContain(s);
  });

  it("ends an open quote without a fill by the cancel and the expiry only, each from every open status", () => {
    const ending = MOVES.filter(
      ([, m]) => m.execution === null && m.to !== null && !isOpen(m.to) && m.from.some(isOpen),
    ).map(([name]) => name);
    expect(ending).toEqual(["cancelled", "expired"]);
    for (const name of ending) expect(QUOTE_MOVES[name].from).toEqual(OPEN_STATUSES);
  });

  it("leaves an expired quote one timeline event, and a cancelled one none", () => {
    expect(QUOTE_MOVES.expired.events).toEqual(["expired"]);
    expect(QUOTE_MOVES.cancelled.events).toEqual([]);
  });
});

describe("the quote status SQL", () => {
  const sqlList = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(",");

  it("is generated from each row: the row's `to` set, on the row's `from`", () => {
    for (const [name, move] of MOVES) {
      const sql = quoteMoveSql(name, "updated_at = ?2", "quote_id = ?1");
      const [, set, where] = /^UPDATE quotes SET (.*) WHERE (.*)$/.exec(sql) ?? [];
      expect(set, name).toBe(move.to === null ? "updated_at = ?2" : `status = '${move.to}', updated_at = ?2`);
      expect(where, name).toBe(`status IN (${sqlList(move.from)}) AND quote_id = ?1`);
      expect(inMoveFrom(name), name).toBe(`status IN (${sqlList(move.from)})`);
    }
  });

  it("moves an execution only from the statuses its state machine lets reach the row's `execution`", () => {
    // docs/settlement.md: a submitted execution settles or fails, a reorg takes a settled one back to
    // submitted; a requote is only ever inserted.
    const documentedFrom: Partial<Record<ExecutionStatus, string>> = {
      submitted: "'settled'",
      settled: "'submitted'",
      failed: "'submitted'",
    };
    for (const [name, move] of MOVES) {
      if (move.execution === null || move.execution === "requote") continue;
      expect(executionMoveSql(move.execution, "updated_at = ?2", "execution_id = ?1"), name).toBe(
        `UPDATE executions SET status = '${move.execution}', updated_at = ?2 WHERE status IN (${documentedFrom[move.execution]}) AND execution_id = ?1`,
      );
    }
  });

  it("of quotes and of executions is written by src/db/quote-moves.ts alone, across src/ and durable-objects/", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
      );
    // An UPDATE of quotes or executions whose SET, before its WHERE, names the status.
    const writesStatus = /UPDATE\s+(?:quotes|executions)\s+SET\s(?:(?!WHERE)[^`"])*?\bstatus\s*=/i;
    const writers = [...files("src"), ...files("durable-objects")].filter((f) =>
      writesStatus.test(readFileSync(f, "utf8")),
    );
    expect(writers).toEqual([join("src", "db", "quote-moves.ts")]);
  });
});
