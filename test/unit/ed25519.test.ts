import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { verifyEd25519, verifyEd25519Text } from "../../src/chains/solana/ed25519";
import { verifyNodeAuth } from "../../src/nodes/auth";
import { authMessage } from "../../src/protocol/node-frames";
import {
  mixedOrderKeySignature,
  mixedOrderRSignature,
  nonCanonicalS,
  SMALL_ORDER_ENCODINGS,
  smallOrderRSignature,
} from "../support/ed25519-forgeries";

const seed = new Uint8Array(32).fill(9);
const publicKey = ed25519.getPublicKey(seed);
const key = base58.encode(publicKey);
const message = new TextEncoder().encode("relay-solana-bid|103:a:b|rfq_1|q_1|1000000|1795000090");
/** What RFC 8032's cofactored check says: noble's `verify` with canonical encodings. */
const cofactored = (signature: Uint8Array, msg: Uint8Array, pk: Uint8Array) =>
  ed25519.verify(signature, msg, pk, { zip215: false });

describe("verifyEd25519: the Solana runtime's strict check", () => {
  it("accepts valid signatures, and refuses another message's, another key's and garbage", () => {
    for (let i = 0; i < 50; i++) {
      const msg = new TextEncoder().encode(`message ${i}`);
      const signature = ed25519.sign(msg, seed);
      expect(verifyEd25519(key, signature, msg)).toBe(true);
      expect(verifyEd25519(key, signature, new TextEncoder().encode(`message ${i}+`))).toBe(false);
      expect(verifyEd25519(base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(100 + i))), signature, msg)).toBe(
        false,
      );
    }
    expect(verifyEd25519(key, new Uint8Array(64), message)).toBe(false);
    expect(verifyEd25519(key, ed25519.sign(message, seed).subarray(0, 63), message)).toBe(false);
    expect(verifyEd25519("not base58 0OIl", ed25519.sign(message, seed), message)).toBe(false);
  });

  it("refuses a signature whose R is a small-order point, which the cofactored check accepts", () => {
    for (const R of SMALL_ORDER_ENCODINGS) {
      const signature = smallOrderRSignature(seed, message, R);
      expect(cofactored(signature, message, publicKey)).toBe(true);
      expect(verifyEd25519(key, signature, message)).toBe(false);
    }
  });

  it("refuses a signature whose R has a torsion component, which the cofactored check accepts", () => {
    const signature = mixedOrderRSignature(seed, message);
    expect(cofactored(signature, message, publicKey)).toBe(true);
    expect(verifyEd25519(key, signature, message)).toBe(false);
  });

  it("refuses a key with a torsion component, whose signatures the cofactored check accepts", () => {
    const forged = mixedOrderKeySignature(seed, message);
    expect(cofactored(forged.signature, message, forged.publicKey)).toBe(true);
    expect(verifyEd25519(base58.encode(forged.publicKey), forged.signature, message)).toBe(false);
  });

  it("refuses a small-order key, and a non-canonical s", () => {
    // The identity as the key: s = 0 and R = identity satisfy [s]B = R + [k]A for any message.
    const identity = SMALL_ORDER_ENCODINGS[0] as Uint8Array;
    const signature = new Uint8Array([...identity, ...new Uint8Array(32)]);
    expect(verifyEd25519(base58.encode(identity), signature, message)).toBe(false);
    expect(verifyEd25519(key, nonCanonicalS(ed25519.sign(message, seed)), message)).toBe(false);
  });

  it("checks texts the same way (bid commitments, auth proofs, cancels, taker proofs)", () => {
    const text = authMessage("103:a:b", "n1");
    const bytes = new TextEncoder().encode(text);
    const forged = base58.encode(smallOrderRSignature(seed, bytes, SMALL_ORDER_ENCODINGS[1] as Uint8Array));
    expect(verifyEd25519Text(key, base58.encode(ed25519.sign(bytes, seed)), text)).toBe(true);
    expect(verifyEd25519Text(key, forged, text)).toBe(false);
  });
});

/** The node's EVM identity, which signs the auth frame the Solana proof rides on. */
const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");

describe("verifyNodeAuth with a Solana proof", () => {
  it("closes bad_signature on a proof whose R is of small order", async () => {
    const corridor = "103:a:b";
    const text = authMessage(corridor, "n2");
    const bytes = new TextEncoder().encode(text);
    const auth = (signature: Uint8Array) => ({
      type: "auth" as const,
      address: account.address,
      name: "alpha",
      version: "1",
      signature: "",
      solana: { address: key, signature: base58.encode(signature) },
    });
    const signature = await account.signMessage({ message: text });
    const honest = await verifyNodeAuth({ ...auth(ed25519.sign(bytes, seed)), signature }, corridor, "n2");
    expect(honest).toMatchObject({ ok: true, ed25519Key: key });
    const forged = smallOrderRSignature(seed, bytes, SMALL_ORDER_ENCODINGS[2] as Uint8Array);
    expect(await verifyNodeAuth({ ...auth(forged), signature }, corridor, "n2")).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });
});
