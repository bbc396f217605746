import { type Address, decodeFunctionData, type Hex, keccak256, parseAbi, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { RpcAnswer } from "../../src/chains/evm/call-batch";
import { verifyPersonalMessage } from "../../src/chains/evm/messages";
import { isMagicValue, walletSignatureRequests, walletVerdict } from "../../src/chains/evm/wallet-signature";
import { ChainUnavailableError } from "../../src/chains/settler";
import { codeChain } from "../support/code-chain";
import { highS } from "../support/signature-variants";

const key = generatePrivateKey();
const signer = privateKeyToAccount(key).address;
const hash = keccak256(toHex("a quote's digest"));
const PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3" as Address;
const MAGIC_WORD = `0x1626ba7e${"0".repeat(56)}`;
const DELEGATED = "0xef01005fbdb2315678afecb367f032d93f642f64180aa3";

const ok = (result: unknown): RpcAnswer => ({ ok: true, result });
const sigOf = async () => sign({ hash, privateKey: key, to: "hex" }) as Promise<Hex>;

describe("walletSignatureRequests", () => {
  it("asks the address's code and its isValidSignature of the hash, from Permit2, in two requests of one batch", async () => {
    const signature = await sigOf();
    const [code, call] = walletSignatureRequests({ signer, hash, signature, verifier: PERMIT2 });
    expect(code).toEqual({ method: "eth_getCode", params: [signer, "latest"] });
    expect(call.method).toBe("eth_call");
    const [request, block] = call.params as [{ from: Address; to: Address; data: Hex }, string];
    expect(block).toBe("latest");
    expect(request).toMatchObject({ from: PERMIT2, to: signer });
    const abi = parseAbi(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"]);
    expect(decodeFunctionData({ abi, data: request.data }).args).toEqual([hash, signature]);
  });
});

describe("walletVerdict: Permit2's rule, by the answers of one batch", () => {
  it("recovers by the strict rule when the address has no code, whatever the code call answered", async () => {
    const signature = await sigOf();
    expect(walletVerdict([ok("0x"), ok("0x")], { signer, hash, signature })).toEqual({ ok: true });
    expect(walletVerdict([ok("0x"), ok(MAGIC_WORD)], { signer, hash, signature: highS(signature) })).toEqual({
      ok: false,
      path: "key",
      rule: expect.stringMatching(/its s is high/),
    });
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(walletVerdict([ok("0x"), ok("0x")], { signer: other, hash, signature })).toEqual({
      ok: false,
      path: "key",
      rule: null,
    });
  });

  it("asks the code when there is any (a contract, or an EIP-7702 delegation), even of a good ECDSA signature", async () => {
    const signature = await sigOf();
    for (const code of ["0x6080604052", DELEGATED]) {
      expect(walletVerdict([ok(code), ok(MAGIC_WORD)], { signer, hash, signature: "0x1234" })).toEqual({ ok: true });
      // The key's own signature is not enough: Permit2 asks the code, which refuses.
      expect(walletVerdict([ok(code), ok(`0xffffffff${"0".repeat(56)}`)], { signer, hash, signature })).toEqual({
        ok: false,
        path: "code",
      });
      // A call that reverts, or an account whose delegate has no code (it answers nothing), refuses.
      expect(
        walletVerdict([ok(code), { ok: false, error: "execution reverted" }], { signer, hash, signature }),
      ).toEqual({
        ok: false,
        path: "code",
      });
      expect(walletVerdict([ok(code), ok("0x")], { signer, hash, signature })).toEqual({ ok: false, path: "code" });
    }
  });

  it("cannot choose a path without the code: a node that does not answer it is the chain unavailable", async () => {
    const signature = await sigOf();
    expect(() => walletVerdict([{ ok: false, error: "timeout" }, ok("0x")], { signer, hash, signature })).toThrow(
      ChainUnavailableError,
    );
    expect(() => walletVerdict([], { signer, hash, signature })).toThrow(ChainUnavailableError);
  });
});

describe("isMagicValue: OpenZeppelin's reading of isValidSignature's return", () => {
  it("takes a first word of the magic value left-aligned and zero after it, and nothing shorter", () => {
    expect(isMagicValue(MAGIC_WORD)).toBe(true);
    expect(isMagicValue(`${MAGIC_WORD}${"ab".repeat(32)}`)).toBe(true);
    expect(isMagicValue(MAGIC_WORD.toUpperCase().replace("0X", "0x"))).toBe(true);
    expect(isMagicValue("0x1626ba7e")).toBe(false);
    expect(isMagicValue(`0x1626ba7e${"0".repeat(55)}1`)).toBe(false);
    expect(isMagicValue(`0x${"0".repeat(56)}1626ba7e`)).toBe(false);
  });
});

describe("verifyPersonalMessage: a taker's cancel or proof", () => {
  const text = "relay-cancel-quote|31337|q_x";

  it("takes the key's strict signature with no read of the chain", async () => {
    const chain = codeChain(DELEGATED, `0xffffffff${"0".repeat(56)}`);
    const signature = await privateKeyToAccount(key).signMessage({ message: text });
    expect(await verifyPersonalMessage(chain, signer, text, signature)).toBe(true);
    expect(chain.batches).toBe(0);
  });

  it("asks the code of an address whose key did not sign, in one batch, and takes its magic value", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const signature = await privateKeyToAccount(key).signMessage({ message: text });
    const accepting = codeChain("0x6080604052", MAGIC_WORD);
    expect(await verifyPersonalMessage(accepting, wallet, text, signature)).toBe(true);
    expect(accepting.batches).toBe(1);
    expect(await verifyPersonalMessage(codeChain("0x6080604052", "0x"), wallet, text, signature)).toBe(false);
    expect(await verifyPersonalMessage(codeChain("0x", MAGIC_WORD), wallet, text, signature)).toBe(false);
  });

  it("leaves it unproven when the chain does not answer", async () => {
    const down = {
      rpcUrl: "http://chain.test",
      fetcher: async () => {
        throw new Error("connection refused");
      },
    };
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    expect(await verifyPersonalMessage(down, wallet, text, await sigOf())).toBe(false);
  });
});
