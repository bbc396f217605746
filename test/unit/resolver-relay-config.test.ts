import { describe, expect, it } from "vitest";
import {
  chainsFromRecord,
  connectUrl,
  fetchRelayConfig,
  targetKey,
  UNPUBLISHED_RPC,
} from "../../src/clients/resolver/relay-config";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";

const target = { chainId: 31337, tokenA: "0xAAaa000000000000000000000000000000000001", tokenB: "0x0b" };

describe("connectUrl", () => {
  it("turns the relay's http(s) URL into the corridor's ws(s) connect URL", () => {
    expect(connectUrl("http://127.0.0.1:8787", target)).toBe(
      "ws://127.0.0.1:8787/v1/corridors/31337/0xAAaa000000000000000000000000000000000001/0x0b/connect",
    );
    expect(connectUrl("https://relay.example/base/", target)).toBe(
      "wss://relay.example/base/v1/corridors/31337/0xAAaa000000000000000000000000000000000001/0x0b/connect",
    );
    expect(connectUrl("wss://relay.example", target)).toMatch(/^wss:\/\/relay\.example\/v1\/corridors\//);
  });
});

describe("targetKey", () => {
  it("is the relay's canonical key: EVM tokens lowercased and sorted, Solana mints as they are", () => {
    const [evm, solana] = chainsFromRecord(configRecord(localConfig));
    if (!evm || !solana) throw new Error("local chains missing");
    expect(targetKey(evm, target)).toBe("31337:0x0b:0xaaaa000000000000000000000000000000000001");
    expect(targetKey(solana, { chainId: 103, tokenA: "Zb", tokenB: "Ab" })).toBe("103:Ab:Zb");
  });
});

describe("chainsFromRecord", () => {
  it("gives a Solana chain the settings its swaps are built from, as the relay has them", () => {
    const solana = chainsFromRecord(configRecord(localConfig)).find((c) => c.kind === "solana");
    const configured = localConfig.chains.find((c) => c.kind === "solana");
    expect(solana?.solana).toEqual({ ...configured, rpcUrl: UNPUBLISHED_RPC });
    expect(chainsFromRecord(configRecord(localConfig)).find((c) => c.kind === "evm")?.solana).toBeUndefined();
  });
});

describe("fetchRelayConfig", () => {
  it("reads and validates GET /v1/config", async () => {
    const record = configRecord(localConfig);
    const asked: string[] = [];
    const fake = async (input: string | URL | Request) => {
      asked.push(String(input));
      return Response.json(record);
    };
    expect(await fetchRelayConfig("ws://relay.example:8787/", fake as typeof fetch)).toEqual(record);
    expect(asked).toEqual(["http://relay.example:8787/v1/config"]);
  });

  it("fails on an unreachable relay, an error status or a record that is not one", async () => {
    const down = async () => {
      throw new TypeError("fetch failed");
    };
    await expect(fetchRelayConfig("http://r:1", down as typeof fetch)).rejects.toThrow(
      "cannot reach the relay at http://r:1/v1/config: fetch failed",
    );
    const status = async () => new Response("nope", { status: 503 });
    await expect(fetchRelayConfig("http://r", status as typeof fetch)).rejects.toThrow(/503/);
    const junk = async () => Response.json({ chains: "no" });
    await expect(fetchRelayConfig("http://r", junk as typeof fetch)).rejects.toThrow();
  });
});
