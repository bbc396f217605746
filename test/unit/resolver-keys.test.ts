import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { anvilAccount, parseSolanaSecret, solanaSigner } from "../../src/clients/resolver/keys";

describe("anvilAccount", () => {
  it("derives anvil's published dev accounts", () => {
    expect([0, 1, 2, 3].map((i) => anvilAccount(i).address)).toEqual([
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    ]);
    expect(() => anvilAccount(-1)).toThrow(RangeError);
  });
});

describe("solanaSigner", () => {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
  const publicKey = ed25519.getPublicKey(seed);

  it("signs text that verifies under its base58 address, from a seed or a keypair file", () => {
    const fromSeed = solanaSigner(seed);
    const keypair = new Uint8Array([...seed, ...publicKey]);
    const fromFile = solanaSigner(parseSolanaSecret(JSON.stringify([...keypair])));
    expect(fromFile.address).toBe(fromSeed.address);
    expect(fromSeed.address).toBe(base58.encode(publicKey));
    const signature = base58.decode(fromFile.sign("relay-node-auth|c|n"));
    expect(ed25519.verify(signature, new TextEncoder().encode("relay-node-auth|c|n"), publicKey)).toBe(true);
    expect(ed25519.verify(signature, new TextEncoder().encode("relay-node-auth|c|m"), publicKey)).toBe(false);
    expect(solanaSigner(parseSolanaSecret(base58.encode(keypair))).address).toBe(fromSeed.address);
  });

  it("signs raw bytes (a transaction's message) as they are", () => {
    const message = Uint8Array.from([0, 1, 2, 255]);
    const signature = base58.decode(solanaSigner(seed).signBytes(message));
    expect(ed25519.verify(signature, message, publicKey)).toBe(true);
    expect(ed25519.verify(signature, Uint8Array.from([0, 1, 2, 254]), publicKey)).toBe(false);
  });

  it("refuses a keypair whose halves do not match, and odd lengths", () => {
    expect(() => solanaSigner(new Uint8Array([...seed, ...new Uint8Array(32)]))).toThrow(/does not match/);
    expect(() => solanaSigner(new Uint8Array(31))).toThrow(RangeError);
    expect(() => parseSolanaSecret("[1, 2, 300]")).toThrow(/array of bytes/);
  });
});
