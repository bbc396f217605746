import { describe, expect, it } from "vitest";
import { allCorridors, corridorTag } from "../../src/chains";
import { ConfigError, parseConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { recordsDatabases, recordsDb } from "../../src/config/records";
import { newestFirst } from "../../src/db/quote-lists";
import { newId } from "../../src/ids";

/** A stand-in D1 binding: what the resolver checks a binding by, and a name to tell them apart. */
const fakeDb = (name: string) => ({ name, prepare() {}, batch() {} }) as unknown as D1Database;

const corridorOf = (kind: string) => {
  const found = allCorridors(localConfig).find((c) => c.chain.kind === kind);
  if (!found) throw new Error(`no ${kind} corridor in the local configuration`);
  return found;
};
const [evm, solana] = [corridorOf("evm"), corridorOf("solana")];
const config = parseConfig({ ...localConfig, records: [{ binding: "RECORDS_2", corridors: [solana.key] }] });
const noLimitOrders = { ...localConfig, limitOrders: null };

describe("which database holds a corridor's records", () => {
  const env = { DB: fakeDb("DB"), RECORDS_2: fakeDb("RECORDS_2") };

  it("finds a listed corridor's database by its key and by the tag of its quotes' and executions' ids", () => {
    expect(recordsDb(env, config, solana.key)).toBe(env.RECORDS_2);
    expect(recordsDb(env, config, newId("q", corridorTag(solana.key)))).toBe(env.RECORDS_2);
    expect(recordsDb(env, config, newId("x", corridorTag(solana.key)))).toBe(env.RECORDS_2);
  });

  it("keeps every corridor not listed, and an id of no listed corridor, in DB", () => {
    expect(recordsDb(env, config, evm.key)).toBe(env.DB);
    expect(recordsDb(env, config, newId("q", corridorTag(evm.key)))).toBe(env.DB);
    expect(recordsDb(env, config, newId("q"))).toBe(env.DB);
    expect(recordsDb(env, localConfig, newId("q", corridorTag(solana.key)))).toBe(env.DB);
  });

  it("lists every database once, DB first", () => {
    expect(recordsDatabases(env, config).all).toEqual([env.DB, env.RECORDS_2]);
    expect(recordsDatabases(env, localConfig).all).toEqual([env.DB]);
  });

  it("refuses a binding the Worker does not have, as a configuration error", () => {
    expect(() => recordsDatabases({ DB: fakeDb("DB") }, config)).toThrow(ConfigError);
    expect(() => recordsDatabases({ DB: fakeDb("DB") }, config)).toThrow(/records: RECORDS_2 is not a D1 binding/);
  });

  it("refuses DB as a listed database, a binding twice, and a corridor in two databases", () => {
    const records = (r: unknown) => () => parseConfig({ ...noLimitOrders, records: r });
    expect(records([{ binding: "DB", corridors: [evm.key] }])).toThrow(/records\.0\.binding/);
    expect(
      records([
        { binding: "RECORDS_2", corridors: [evm.key] },
        { binding: "RECORDS_2", corridors: [solana.key] },
      ]),
    ).toThrow(/duplicate binding/);
    expect(
      records([
        { binding: "RECORDS_2", corridors: [evm.key] },
        { binding: "RECORDS_3", corridors: [evm.key] },
      ]),
    ).toThrow(/records\.1\.corridors\.0/);
    expect(records([{ binding: "records", corridors: [evm.key] }])).toThrow(/binding name/);
    expect(records([{ binding: "RECORDS_2", corridors: ["USDC/cNGN"] }])).toThrow(/corridor key/);
    expect(records([{ binding: "RECORDS_2", corridors: [evm.key] }])).not.toThrow();
    // Limit orders are followed in DB: with them on, an EVM corridor keeps its records there.
    const withLimitOrders = () =>
      parseConfig({ ...localConfig, records: [{ binding: "RECORDS_2", corridors: [evm.key] }] });
    expect(withLimitOrders).toThrow(/limit orders are on/);
  });
});

describe("a page merged over the records databases", () => {
  const q = (minute: number, id: string) => ({ quotedAt: `2026-11-20T10:0${minute}:00.000Z`, quoteId: id });

  it("keeps the newest `limit`, newest first, by time then id, whichever database each came from", () => {
    const first = [q(5, "q_b"), q(3, "q_a"), q(1, "q_a")];
    const second = [q(4, "q_z"), q(3, "q_c"), q(0, "q_a")];
    expect(newestFirst([first, second], 4)).toEqual([q(5, "q_b"), q(4, "q_z"), q(3, "q_c"), q(3, "q_a")]);
    expect(newestFirst([first, []], 10)).toEqual(first);
    expect(newestFirst([], 3)).toEqual([]);
  });
});
