import { type Hex, hashMessage, recoverMessageAddress, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { recoverMessageSigner, verifyPersonalMessage } from "../../src/chains/evm/messages";
import { recoverStrict, strictSignature } from "../../src/chains/evm/strict-signature";
import { verifyNodeAuth } from "../../src/nodes/auth";
import { authMessage } from "../../src/protocol/node-frames";
import { codeChain } from "../support/code-chain";
import { flipV, highS, vAsParity, withV } from "../support/signature-variants";

/** A chain where no signer has code: a message is its key's or no one's. */
const NO_CODE = codeChain();

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const text = "relay-cancel|31337|q_0123456789abcdef0123456789abcdef";
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The signature with its r or s replaced (v kept). */
const withR = (signature: Hex, r: bigint): Hex => `${toHex(r, { size: 32 })}${signature.slice(66)}` as Hex;
const withS = (signature: Hex, s: bigint): Hex =>
  `${signature.slice(0, 66)}${toHex(s, { size: 32 }).slice(2)}${signature.slice(130)}` as Hex;

describe("the strict EVM signature rule (OpenZeppelin's ECDSA.tryRecover)", () => {
  it("accepts a wallet's signature: 65 bytes, v 27 or 28, low s", async () => {
    const signature = await account.signMessage({ message: text });
    expect(strictSignature(signature)).toMatchObject({ yParity: signature.endsWith("1b") ? 0 : 1 });
    expect(recoverStrict(hashMessage(text), signature)).toEqual({
      address: account.address,
      publicKey: account.publicKey,
    });
    expect(await verifyPersonalMessage(NO_CODE, account.address, text, signature)).toBe(true);
    expect(await verifyPersonalMessage(NO_CODE, account.address.toLowerCase(), text, signature)).toBe(true);
  });

  it("refuses v 0/1 and the high-s twin, which viem's recovery reads as the same signer", async () => {
    const signature = await account.signMessage({ message: text });
    for (const variant of [vAsParity(signature), highS(signature)]) {
      expect(await recoverMessageAddress({ message: text, signature: variant })).toBe(account.address);
      expect(strictSignature(variant)).toBeNull();
      expect(await verifyPersonalMessage(NO_CODE, account.address, text, variant)).toBe(false);
      expect(await recoverMessageSigner(text, variant)).toBeNull();
    }
  });

  it("refuses v flipped, any v but 27 and 28, 64 or 66 bytes, and r or s out of range", async () => {
    const signature = await account.signMessage({ message: text });
    expect(await verifyPersonalMessage(NO_CODE, account.address, text, flipV(signature))).toBe(false);
    const refused: string[] = [
      withV(signature, 2),
      withV(signature, 29),
      signature.slice(0, 130),
      `${signature}1b`,
      withR(signature, 0n),
      withR(signature, ORDER),
      withS(signature, 0n),
      withS(signature, ORDER - 1n),
      `${signature.slice(0, 129)}g`,
      "",
    ];
    for (const variant of refused) {
      expect(strictSignature(variant)).toBeNull();
      expect(await verifyPersonalMessage(NO_CODE, account.address, text, variant)).toBe(false);
    }
  });

  it("closes node auth with bad_signature on a v-0/1 or high-s signature of the right key", async () => {
    const corridor = "31337:0xa:0xb";
    const message = authMessage(corridor, "n1");
    const signature = await account.signMessage({ message });
    const frame = (sig: string) => ({
      type: "auth" as const,
      address: account.address,
      signature: sig,
      name: "a",
      version: "1",
    });
    expect(await verifyNodeAuth(frame(signature), corridor, "n1")).toMatchObject({ ok: true });
    for (const variant of [vAsParity(signature), highS(signature)]) {
      expect(await verifyNodeAuth(frame(variant), corridor, "n1")).toEqual({ ok: false, reason: "bad_signature" });
    }
  });
});
