import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";

const clone = () =>
  structuredClone(localConfig) as unknown as { chains: Record<string, unknown>[] } & Record<string, unknown>;

describe("configuration", () => {
  it("accepts the embedded local default", () => {
    expect(parseConfig(localConfig)).toEqual(localConfig);
  });

  it("fills the documented defaults", () => {
    const { rfqWindowMs, quoteTtlSeconds, bandGuardBps, maxOutstandingRfqs, keeperFloorFills, retention, ...rest } =
      clone();
    void [rfqWindowMs, quoteTtlSeconds, bandGuardBps, maxOutstandingRfqs, keeperFloorFills, retention];
    const config = parseConfig(rest);
    expect(config.rfqWindowMs).toBe(1500);
    expect(config.quoteTtlSeconds).toBe(30);
    expect(config.bandGuardBps).toBe(300);
    expect(config.keeperFloorFills).toBe(20);
    expect(config.retention).toEqual({ unfilledHours: 3, unfilledDays: 7, filledDays: 400 });
    expect(parseConfig({ ...rest, retention: { filledDays: 30 } }).retention).toEqual({
      unfilledHours: 3,
      unfilledDays: 7,
      filledDays: 30,
    });
  });

  it("fills each chain kind's maxLegs and each token's minLegSellAmount when left out (docs/legs.md)", () => {
    const bare = clone();
    for (const chain of bare.chains) {
      delete chain.maxLegs;
      for (const token of chain.tokens as Record<string, unknown>[]) delete token.minLegSellAmount;
    }
    const config = parseConfig(bare);
    expect(config.chains.map((c) => c.maxLegs)).toEqual([4, 2]);
    expect(config.chains.flatMap((c) => c.tokens.map((t) => t.minLegSellAmount))).toEqual([null, null, null, null]);
  });

  it.each([
    ["chains.0.maxLegs", (c: ReturnType<typeof clone>) => Object.assign(c.chains[0] as object, { maxLegs: 5 })],
    // Three legs do not fit in one Solana transaction (test/unit/solana-legs-size.test.ts).
    ["chains.1.maxLegs", (c: ReturnType<typeof clone>) => Object.assign(c.chains[1] as object, { maxLegs: 3 })],
    ["chains.1.maxLegs", (c: ReturnType<typeof clone>) => Object.assign(c.chains[1] as object, { maxLegs: 0 })],
    [
      "chains.0.tokens.1.minLegSellAmount",
      (c: ReturnType<typeof clone>) => {
        ((c.chains[0] as { tokens: Record<string, unknown>[] }).tokens[1] as Record<string, unknown>).minLegSellAmount =
          "-1";
      },
    ],
    ["chains.0.executor", (c: ReturnType<typeof clone>) => Object.assign(c.chains[0] as object, { executor: "0x12" })],
    ["chains.1.chainId", (c: ReturnType<typeof clone>) => Object.assign(c.chains[1] as object, { chainId: 31337 })],
    [
      "chains.0.gasFee.token",
      (c: ReturnType<typeof clone>) =>
        Object.assign(c.chains[0] as object, { gasFee: { fixed: "1", token: `0x${"ab".repeat(20)}` } }),
    ],
    [
      "chains.0.tokens.0.minimum",
      (c: ReturnType<typeof clone>) => {
        ((c.chains[0] as { tokens: Record<string, unknown>[] }).tokens[0] as Record<string, unknown>).minimum = "1.5";
      },
    ],
    [
      "chains.1.pairs.0",
      (c: ReturnType<typeof clone>) =>
        Object.assign(c.chains[1] as object, {
          pairs: [["11111111111111111111111111111111", "949zbbi2MjwtY4Nbi8utygHdMt4ba9P4DhTHBfAChJWa"]],
        }),
    ],
    ["rfqWindowMs", (c: ReturnType<typeof clone>) => Object.assign(c, { rfqWindowMs: 1.5 })],
    [
      "limitOrders.minExpirySeconds",
      (c: ReturnType<typeof clone>) =>
        Object.assign(c, { limitOrders: { minExpirySeconds: 9000, maxExpirySeconds: 600, maxOpenPerTaker: 1 } }),
    ],
    ["chains", (c: ReturnType<typeof clone>) => Object.assign(c, { chains: [c.chains[1]] })],
    ["retention.unfilledHours", (c: ReturnType<typeof clone>) => Object.assign(c, { retention: { unfilledHours: 0 } })],
    ["retention.unfilledDays", (c: ReturnType<typeof clone>) => Object.assign(c, { retention: { unfilledDays: 0 } })],
    ["retention.filledDays", (c: ReturnType<typeof clone>) => Object.assign(c, { retention: { filledDays: 0.5 } })],
  ])("refuses a bad %s, naming it", (field, spoil) => {
    const config = clone();
    spoil(config);
    expect(() => parseConfig(config)).toThrow(ConfigError);
    expect(() => parseConfig(config)).toThrow(new RegExp(`${field.replaceAll(".", "\\.")}: `));
  });

  it("reads RELAY_CONFIG as JSON, and refuses text that is not JSON", () => {
    const custom = { ...clone(), rfqWindowMs: 900 };
    expect(loadConfig(JSON.stringify(custom)).rfqWindowMs).toBe(900);
    expect(loadConfig("").rfqWindowMs).toBe(localConfig.rfqWindowMs);
    expect(() => loadConfig("{nope")).toThrow(/RELAY_CONFIG is not JSON/);
  });
});

describe("configuration record (2.6)", () => {
  const record = configRecord(localConfig);

  it("has exactly the fields of the spec, the first EVM chain inline", () => {
    expect(Object.keys(record).sort()).toEqual(
      [
        "chains",
        "chainId",
        "executor",
        "reactor",
        "validation",
        "permit2",
        "feeController",
        "tokens",
        "gasFee",
        "rfqWindowMs",
        "requireTakerProof",
        "requireRegistration",
        "maxOutstandingRfqs",
        "limitOrders",
        // Beside the spec's fields: the per-client limits a client meets (docs/api.md, "Limits"), and how
        // long quotes are kept (docs/operations.md, "Retention"), and the band guard steering applies
        // (docs/api.md, "Ranking and steering").
        "limits",
        "retention",
        "bandGuardBps",
      ].sort(),
    );
    expect(record.retention).toEqual({ unfilledHours: 3, unfilledDays: 7, filledDays: 400 });
    expect(record.bandGuardBps).toBe(localConfig.bandGuardBps);
    const evm = record.chains[0] as Record<string, unknown>;
    expect(record.chainId).toBe(evm.chainId);
    expect(record.executor).toBe(evm.executor);
    expect(record.tokens).toEqual(evm.tokens);
    expect(Object.keys(evm).sort()).toEqual(
      [
        "kind",
        "chainId",
        "name",
        "executor",
        "reactor",
        "validation",
        "permit2",
        "feeController",
        "tokens",
        "maxLegs",
        "gasFee",
      ].sort(),
    );
  });

  it("publishes no RPC URL or internal knob", () => {
    const text = JSON.stringify(record);
    expect(text).not.toContain("rpcUrl");
    expect(record.chains.find((c) => c.kind === "evm")).not.toHaveProperty("fee");
    expect(text).not.toContain("finalityConfirmations");
  });

  it("shows a Solana chain with executor = program and fee.token = first fee mint", () => {
    const sol = record.chains[1] as Record<string, unknown> & { fee: { token: string; tokens: string[] } };
    expect(sol.kind).toBe("solana");
    expect(sol.executor).toBe(sol.program);
    expect(sol.fee.token).toBe(sol.fee.tokens[0]);
    expect(Object.keys(sol).sort()).toEqual(
      [
        "kind",
        "chainId",
        "name",
        "cluster",
        "program",
        "executor",
        "treasury",
        "keeper",
        "tokens",
        "maxLegs",
        "fee",
        "computeUnitLimit",
        "computeUnitPrice",
        "gasFee",
        "pairs",
      ].sort(),
    );
  });

  it("publishes each chain's maxLegs and each token's minLegSellAmount (docs/legs.md)", () => {
    const [evm, sol] = record.chains as { maxLegs: number; tokens: { minLegSellAmount: string | null }[] }[];
    expect([evm?.maxLegs, sol?.maxLegs]).toEqual([4, 2]);
    expect([...(evm?.tokens ?? []), ...(sol?.tokens ?? [])].map((t) => t.minLegSellAmount)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    const set = clone();
    ((set.chains[0] as { tokens: Record<string, unknown>[] }).tokens[1] as Record<string, unknown>).minLegSellAmount =
      "250000";
    expect(configRecord(parseConfig(set)).tokens.map((t) => t.minLegSellAmount)).toEqual([null, "250000"]);
  });

  it("shows limitOrders as null when they are off", () => {
    expect(configRecord({ ...localConfig, limitOrders: null }).limitOrders).toBeNull();
  });
});
