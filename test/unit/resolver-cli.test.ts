import { describe, expect, it } from "vitest";
import { allCorridors } from "../../src/chains/corridor-keys";
import {
  buildInventory,
  buildPricer,
  CliError,
  DEFAULT_INVENTORY,
  parseCliOptions,
  pickSpareIndex,
  resolveCorridors,
} from "../../src/clients/resolver/cli";
import { chainsFromRecord, corridorsFromRecord, targetKey } from "../../src/clients/resolver/relay-config";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";

const record = configRecord(localConfig);
const chains = chainsFromRecord(record);
const evm = chains.find((c) => c.kind === "evm");
const owner = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("pickSpareIndex", () => {
  const addressOf = (i: number) => `0x${String(i).repeat(40)}`;

  it("takes the first spare account that is not connected, whatever the case of the addresses", () => {
    expect(pickSpareIndex([], addressOf)).toBe(3);
    expect(pickSpareIndex([addressOf(3).toUpperCase().replace("0X", "0x")], addressOf)).toBe(4);
  });

  it("finds none when every spare is connected", () => {
    expect(pickSpareIndex([addressOf(3), addressOf(4), addressOf(1)], addressOf)).toBeNull();
  });
});

describe("parseCliOptions", () => {
  it("defaults to the local relay, a spare anvil account, a 20 bps spread and every corridor", () => {
    expect(parseCliOptions([], {})).toEqual({
      relayUrl: "http://127.0.0.1:8787",
      privateKey: null,
      index: null,
      name: null,
      region: null,
      signerType: "keyfile",
      corridors: [],
      pricing: { kind: "spread", spreadBps: 20 },
      latencyMs: 0,
      declineRate: 0,
      levelsEveryMs: 3_000,
      inventory: { all: DEFAULT_INVENTORY, bySymbol: {} },
      rpc: [],
      solanaKey: null,
      help: false,
    });
  });

  it("reads flags, and the key and relay from the environment", () => {
    const key = `0x${"11".repeat(32)}`;
    const options = parseCliOptions(
      [
        "--index=2",
        "--name",
        "alpha",
        "--rate",
        "0.000633",
        "--rate-sell",
        "cNGN",
        "--latency-ms",
        "20-80",
        "--decline-rate",
        "0.25",
        "--levels-every",
        "0",
        "--inventory",
        "5000",
        "--inventory",
        "USDC=12.5",
        "--rpc",
        "http://127.0.0.1:8545",
        "--rpc",
        "8453=https://base.example/rpc",
        "--corridor",
        "31337:cNGN:USDC",
      ],
      { RELAY_URL: "https://relay.example/", RESOLVER_KEY: key, RESOLVER_SOLANA_KEY: "[1,2]" },
    );
    expect(options).toMatchObject({
      relayUrl: "https://relay.example",
      privateKey: key,
      index: 2,
      name: "alpha",
      pricing: { kind: "rate", rate: { num: 633n, den: 1_000_000n }, sellSymbol: "cNGN" },
      latencyMs: { min: 20, max: 80 },
      declineRate: 0.25,
      levelsEveryMs: 0,
      inventory: { all: "5000", bySymbol: { usdc: "12.5" } },
      rpc: [
        { chainId: null, url: "http://127.0.0.1:8545" },
        { chainId: 8453, url: "https://base.example/rpc" },
      ],
      corridors: ["31337:cNGN:USDC"],
      solanaKey: { text: "[1,2]" },
    });
    expect(parseCliOptions(["--relay", "http://localhost:9000"], { RELAY_URL: "http://x" }).relayUrl).toBe(
      "http://localhost:9000",
    );
  });

  it.each([
    [["--rate", "0.1", "--spread-bps", "5"], /alternatives/],
    [["--rate=-1"], /--rate must be a positive/],
    [["--rate", "0"], /--rate must be a positive/],
    [["--rate-sell", "cNGN"], /needs --rate/],
    [["--decline-rate", "1.5"], /--decline-rate/],
    [["--levels-every", "soon"], /--levels-every/],
    [["--latency-ms", "80-20"], /low to high/],
    [["--index", "x"], /--index/],
    [["--inventory", "USDC=lots"], /not an amount/],
    [["--relay", "not a url"], /--relay must be a URL/],
    [["--bogus"], /bogus/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliOptions(argv, {})).toThrow(message);
    expect(() => parseCliOptions(argv, {})).toThrow(CliError);
  });

  it("refuses a malformed RESOLVER_KEY", () => {
    expect(() => parseCliOptions([], { RESOLVER_KEY: "0x1234" })).toThrow(/RESOLVER_KEY/);
  });
});

describe("resolveCorridors", () => {
  it("serves exactly the corridors the relay serves by default", () => {
    const keys = resolveCorridors([], record, chains).map((t) => {
      const chain = chains.find((c) => c.chainId === t.chainId);
      return chain ? targetKey(chain, t) : "";
    });
    expect(keys.sort()).toEqual(
      allCorridors(localConfig)
        .map((c) => c.key)
        .sort(),
    );
    expect(corridorsFromRecord(record)).toHaveLength(keys.length);
  });

  it("accepts symbols or addresses, and refuses what the relay does not have", () => {
    const usdc = evm?.tokens.find((t) => t.symbol === "USDC")?.address ?? "";
    const cngn = evm?.tokens.find((t) => t.symbol === "cNGN")?.address ?? "";
    expect(resolveCorridors([`31337:cngn:${usdc.toLowerCase()}`], record, chains)).toEqual([
      { chainId: 31337, tokenA: cngn, tokenB: usdc },
    ]);
    expect(() => resolveCorridors(["31337:cNGN:DAI"], record, chains)).toThrow(/no token DAI/);
    expect(() => resolveCorridors(["1:cNGN:USDC"], record, chains)).toThrow(CliError);
  });
});

describe("buildInventory and buildPricer", () => {
  it("reports every token in base units, with per-symbol overrides", async () => {
    const options = parseCliOptions(["--inventory", "1000", "--inventory", "usdc=2.5"], {});
    const source = buildInventory(options, record, chains, owner);
    if (!evm) throw new Error("no EVM chain in the local config");
    const tokens = evm.tokens.map((t) => t.address);
    const entries = await source.read(evm, tokens);
    const bySymbol = Object.fromEntries(
      entries.map((e) => [evm.tokens.find((t) => t.address === e.token)?.symbol, [e.balance, e.allowance]]),
    );
    expect(bySymbol).toEqual({ cNGN: ["1000000000", "1000000000"], USDC: ["2500000", "2500000"] });
  });

  it("refuses an RPC for a chain the relay does not run, and a Solana RPC without a Solana key", () => {
    expect(() => buildInventory(parseCliOptions(["--rpc", "999=http://x"], {}), record, chains, owner)).toThrow(
      /no chain 999/,
    );
    expect(() => buildInventory(parseCliOptions(["--rpc", "103=http://x"], {}), record, chains, owner)).toThrow(
      /RESOLVER_SOLANA_KEY/,
    );
  });

  it("reads a Solana chain given an RPC live, for the Solana key, and the other chains statically", async () => {
    const solana = chains.find((c) => c.kind === "solana");
    if (!evm || !solana) throw new Error("local chains missing");
    const options = parseCliOptions(["--rpc", "103=http://127.0.0.1:9"], {});
    const source = buildInventory(options, record, chains, owner, "7VnpjTYx5z8ByXAYGysz8q55JndTBQ8ftY6HGzZydiDs");
    // Nothing listens on port 9: a live read fails, where static figures would have answered.
    await expect(source.read(solana, [solana.tokens[0]?.address ?? ""])).rejects.toThrow();
    expect(await source.read(evm, [evm.tokens[0]?.address ?? ""])).toHaveLength(1);
  });

  it("builds the pricer the flags name", async () => {
    const [cngn, usdc] = [evm?.tokens[0], evm?.tokens[1]];
    if (!cngn || !usdc) throw new Error("local tokens missing");
    const request = { chainId: 31337, sellToken: cngn, buyToken: usdc, sellAmount: 1_000_000_000n, band: null };
    expect(await buildPricer(parseCliOptions(["--rate", "0.000633"], {}).pricing)(request)).toEqual({
      outputAmount: 633_000n,
    });
    expect(await buildPricer(parseCliOptions([], {}).pricing)(request)).toEqual({ decline: "no_band" });
  });
});
