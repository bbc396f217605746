import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { recoverMessageAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  authFrameFor,
  dispatchRelayFrame,
  encodeNodeFrame,
  parseRelayFrame,
} from "../../src/clients/resolver/frame-codec";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { authMessage } from "../../src/protocol/node-frames";
import type { RelayFrame } from "../../src/protocol/relay-frames";

const account = anvilAccount(1);

describe("parseRelayFrame", () => {
  it("reads a protocol frame", () => {
    const text = JSON.stringify({ type: "challenge", nonce: "n1", corridor: "31337:0xa:0xb" });
    expect(parseRelayFrame(text)).toEqual({
      ok: true,
      frame: { type: "challenge", nonce: "n1", corridor: "31337:0xa:0xb" },
    });
  });

  it("says why it refuses text that is not JSON, and a frame the protocol does not know", () => {
    const notJson = parseRelayFrame("{nope");
    expect(notJson.ok).toBe(false);
    if (!notJson.ok) expect(notJson.error.message).toBe("the relay sent a frame that is not JSON: {nope");
    const unknown = parseRelayFrame(JSON.stringify({ type: "surprise" }));
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.message).toBe('unrecognised relay frame: {"type":"surprise"}');
  });
});

describe("encodeNodeFrame", () => {
  it("gives a valid frame's JSON and refuses one the protocol does not allow", () => {
    const decline = { type: "decline" as const, rfqId: "r_1", reason: "paused" };
    expect(encodeNodeFrame(decline)).toBe(JSON.stringify(decline));
    expect(encodeNodeFrame({ ...decline, reason: "x".repeat(10_000) })).toBeNull();
  });
});

describe("dispatchRelayFrame", () => {
  it("calls the handler of the frame's type, and nothing for a type without one", () => {
    const seen: string[] = [];
    const handlers = {
      band: (f: Extract<RelayFrame, { type: "band" }>) => seen.push(`band ${f.mid}`),
      result: (f: Extract<RelayFrame, { type: "result" }>) => seen.push(`result ${f.rfqId}`),
    };
    const band: RelayFrame = {
      type: "band",
      base: "USD",
      quote: "NGN",
      mid: 1600,
      low: 1590,
      high: 1610,
      sources: 3,
      at: 0,
    };
    dispatchRelayFrame(band, handlers);
    dispatchRelayFrame({ type: "error", code: "x", message: "y" }, handlers);
    expect(seen).toEqual(["band 1600"]);
  });
});

describe("authFrameFor", () => {
  it("signs the challenge text with the node's account, and proves its Solana key over the same text", async () => {
    const solana = solanaSigner(new Uint8Array(32).fill(3));
    const identity = {
      account,
      name: "alpha",
      version: "1.0.0",
      region: "lagos",
      signerType: "keyfile" as const,
      solana,
    };
    const auth = await authFrameFor(identity, "31337:0xa:0xb", "n1");
    const text = authMessage("31337:0xa:0xb", "n1");
    expect(auth).toMatchObject({ type: "auth", address: account.address, name: "alpha", version: "1.0.0" });
    expect(auth).toMatchObject({ region: "lagos", signerType: "keyfile" });
    expect(await recoverMessageAddress({ message: text, signature: auth.signature as `0x${string}` })).toBe(
      account.address,
    );
    expect(auth.solana?.address).toBe(solana.address);
    const proof = base58.decode(auth.solana?.signature ?? "");
    expect(ed25519.verify(proof, new TextEncoder().encode(text), base58.decode(solana.address))).toBe(true);
    expect(encodeNodeFrame(auth)).not.toBeNull();
  });

  it("leaves out what the node did not set", async () => {
    const auth = await authFrameFor({ account, name: "alpha", version: "1.0.0", region: null }, "c", "n");
    expect(Object.keys(auth).sort()).toEqual(["address", "name", "signature", "type", "version"]);
  });
});
