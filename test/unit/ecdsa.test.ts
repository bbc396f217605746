import { secp256k1 } from "@noble/curves/secp256k1";
import { bytesToHex, type Hex, hexToBytes, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { verifyWithKey } from "../../src/chains/evm/ecdsa";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const other = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const hash = keccak256(toHex("a bid"));

describe("verifyWithKey", () => {
  it("accepts the key's signature and refuses others, other hashes and garbage", async () => {
    const signature = await account.sign({ hash });
    expect(verifyWithKey(hash, signature, account.publicKey)).toBe(true);
    expect(verifyWithKey(hash, signature, other.publicKey)).toBe(false);
    expect(verifyWithKey(keccak256(toHex("another bid")), signature, account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, await other.sign({ hash }), account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, "0x1234", account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, `0x${"00".repeat(65)}`, account.publicKey)).toBe(false);
  });

  it("accepts the signer's signature and refuses another digest's, on 100 random keys", async () => {
    for (let i = 0; i < 100; i++) {
      const signer = privateKeyToAccount(generatePrivateKey());
      const digest = keccak256(toHex(`bid ${i}`));
      const signature = await signer.sign({ hash: digest });
      expect(verifyWithKey(digest, signature, signer.publicKey)).toBe(true);
      expect(verifyWithKey(keccak256(toHex(`bid ${i}+`)), signature, signer.publicKey)).toBe(false);
    }
  });

  it("refuses the high-s twin of a valid signature", async () => {
    const signature = hexToBytes(await account.sign({ hash }));
    const s = BigInt(bytesToHex(signature.slice(32, 64)));
    const twin = new Uint8Array(signature);
    twin.set(hexToBytes(toHex(secp256k1.Point.Fn.ORDER - s, { size: 32 })), 32);
    expect(verifyWithKey(hash, bytesToHex(twin) as Hex, account.publicKey)).toBe(false);
  });
});
