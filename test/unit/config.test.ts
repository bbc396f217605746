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

  it.each([
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
        "fee",
        "computeUnitLimit",
        "computeUnitPrice",
        "gasFee",
        "pairs",
      ].sort(),
    );
  });

  it("shows limitOrders as null when they are off", () => {
    expect(configRecord({ ...localConfig, limitOrders: null }).limitOrders).toBeNull();
  });
});
