import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { verifyNodeAuth } from "../../src/nodes/auth";
import { authMessage } from "../../src/protocol/node-frames";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const solanaSecret = new Uint8Array(32).fill(7);
const solanaAddress = base58.encode(ed25519.getPublicKey(solanaSecret));
const corridor = "31337:0xa:0xb";

async function frame(nonce: string, withSolana = false, solanaNonce = nonce) {
  const text = authMessage(corridor, nonce);
  return {
    type: "auth" as const,
    address: account.address,
    signature: await account.signMessage({ message: text }),
    name: "alpha",
    version: "1",
    ...(withSolana
      ? {
          solana: {
            address: solanaAddress,
            signature: base58.encode(
              ed25519.sign(new TextEncoder().encode(authMessage(corridor, solanaNonce)), solanaSecret),
            ),
          },
        }
      : {}),
  };
}

describe("verifyNodeAuth", () => {
  it("accepts a signature over this corridor's challenge", async () => {
    expect(await verifyNodeAuth(await frame("n1"), corridor, "n1")).toEqual({
      ok: true,
      address: account.address,
      publicKey: account.publicKey,
      ed25519Key: null,
    });
  });

  it("refuses a signature over another nonce or corridor", async () => {
    expect(await verifyNodeAuth(await frame("n1"), corridor, "n2")).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verifyNodeAuth(await frame("n1"), "1:0xa:0xb", "n1")).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses garbage signatures", async () => {
    const f = { ...(await frame("n1")), signature: "0x1234" };
    expect(await verifyNodeAuth(f, corridor, "n1")).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("accepts a proved Solana key and refuses a forged one", async () => {
    expect(await verifyNodeAuth(await frame("n1", true), corridor, "n1")).toMatchObject({
      ok: true,
      ed25519Key: solanaAddress,
    });
    expect(await verifyNodeAuth(await frame("n1", true, "other"), corridor, "n1")).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });
});
