import { readFileSync } from "node:fs";
import { hashMessage, hashTypedData, keccak256, recoverTypedDataAddress, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { completeToSign, eip712ToSign, typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { LIMIT_FILL_TYPES } from "../../src/chains/evm/limit-typed-data";
import { recoverMessageSigner, verifyPersonalMessage } from "../../src/chains/evm/messages";
import {
  EXECUTOR_DOMAIN_NAME,
  PERMIT_WITNESS_TYPES,
  quoteIdToBytes32,
  RFQ_FILL_TYPES,
  RFQ_ORDER_TYPE,
} from "../../src/chains/evm/typed-data";
import { typedDataDigest } from "../../src/chains/evm/typed-data-digest";
import { solanaAdapter, solanaBidText } from "../../src/chains/solana/adapter";
import { verifyEd25519Text } from "../../src/chains/solana/ed25519";
import { completeBidText } from "../../src/clients/resolver/check-rfq";
import { NODE_FRAME_EXAMPLES, RELAY_FRAME_EXAMPLES } from "../../src/protocol/frame-examples";
import { authMessage } from "../../src/protocol/node-frames";
import { codeChain } from "../support/code-chain";
import { vectorEvmChain, vectorEvmKeys, vectors, vectorTerms } from "../support/signing-vectors";
import { localSolana } from "../support/solana-swap";

/** A chain where no signer has code: a message is its key's or no one's. */
const NO_CODE = codeChain();

/**
 * The test vectors of docs/resolver-protocol.md ("Test vectors"), made by scripts/signing-vectors.ts from
 * the page's definitions with viem and noble alone, checked against the relay's own code: the texts and
 * `toSign` it builds, the digests it verifies against, and its verdict on each signature.
 */

const doc = readFileSync(new URL("../../docs/resolver-protocol.md", import.meta.url), "utf8");
const v = vectors;

/** EIP-712's encodeType of a primary type: itself, then the struct types it references, sorted by name. */
function encodeType(types: Record<string, readonly { name: string; type: string }[]>, primary: string): string {
  const referenced = new Set<string>();
  const walk = (name: string) => {
    for (const field of types[name] ?? []) {
      const base = field.type.replace(/\[\d*\]$/, "");
      if (types[base] && base !== primary && !referenced.has(base)) {
        referenced.add(base);
        walk(base);
      }
    }
  };
  walk(primary);
  const one = (name: string) => `${name}(${(types[name] ?? []).map((f) => `${f.type} ${f.name}`).join(",")})`;
  return [primary, ...[...referenced].sort()].map(one).join("");
}

/** The signature with `v` flipped: the same r and s, which ecrecover reads as another signer. */
const flipV = (sig: string) => `${sig.slice(0, 130)}${sig.endsWith("1b") ? "1c" : "1b"}`;

describe("signing vectors", () => {
  it("are all shown in docs/resolver-protocol.md", () => {
    const shown = (value: unknown): string[] =>
      typeof value === "string" && value.length >= 40
        ? [value]
        : typeof value === "object" && value !== null
          ? Object.entries(value).flatMap(([k, x]) => (k === "toSign" ? [] : shown(x)))
          : [];
    const missing = shown(v).filter((s) => !doc.includes(s));
    expect(missing).toEqual([]);
  });

  it("auth: the text, its EIP-191 digest, and both signatures verify as the relay checks them", async () => {
    expect(authMessage(v.auth.corridor, v.auth.nonce)).toBe(v.auth.text);
    expect(hashMessage(v.auth.text)).toBe(v.auth.eip191Digest);
    expect(await verifyPersonalMessage(NO_CODE, v.keys.evm.address, v.auth.text, v.auth.signature)).toBe(true);
    expect((await recoverMessageSigner(v.auth.text, v.auth.signature))?.address).toBe(v.keys.evm.address);
    expect(await verifyPersonalMessage(NO_CODE, v.keys.evm.address, v.auth.text, flipV(v.auth.signature))).toBe(false);
    expect(verifyEd25519Text(v.keys.ed25519.publicKey, v.auth.solanaSignature, v.auth.text)).toBe(true);
    expect(verifyEd25519Text(v.keys.ed25519.publicKey, v.auth.solanaSignature, `${v.auth.text} `)).toBe(false);
  });

  it("RfqFill: the relay's toSign, type string, domain, digest and verdict are the vector's", async () => {
    const f = v.rfqFill;
    expect(quoteIdToBytes32(f.quoteId)).toBe(f.quoteIdBytes32);
    expect(encodeType(RFQ_FILL_TYPES, "RfqFill")).toBe(f.typeString);
    expect(keccak256(stringToHex(f.typeString))).toBe(f.typeHash);
    const t = vectorTerms({
      chain: vectorEvmChain(),
      corridor: v.auth.corridor,
      rfqId: f.rfqId,
      quoteId: f.quoteId,
      deadline: f.deadline,
    });
    const adapter = evmAdapter(vectorEvmChain());
    const toSign = JSON.parse(JSON.stringify(adapter.bidToSign(t)));
    expect(toSign).toEqual(f.toSign);
    // No EIP712Domain in `types`: the domain type is the standard one for the four fields, chainId a number.
    expect(Object.keys(toSign.types)).toEqual(["RfqFill"]);
    expect(toSign.domain.name).toBe(EXECUTOR_DOMAIN_NAME);
    const completed = completeToSign(eip712ToSign(toSign), BigInt(f.outputAmount));
    expect(typedDataDigest(completed)).toBe(f.digest);
    expect(
      hashTypedData({
        ...completed,
        types: {
          ...completed.types,
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      } as never),
    ).toBe(f.digest);
    const keys = await vectorEvmKeys();
    expect(adapter.verifyBid(t, BigInt(f.outputAmount), keys, f.signature)).toBe(true);
    expect(adapter.verifyBid(t, BigInt(f.outputAmount) + 1n, keys, f.signature)).toBe(false);
    expect(adapter.verifyBid(t, BigInt(f.outputAmount), keys, flipV(f.signature))).toBe(false);
    // A part (docs/legs.md): the rfq's toSign with the part in `sellAmount`, checked over the part alone.
    const p = v.rfqFillPart;
    const partTyped = completeToSign(eip712ToSign(toSign), BigInt(p.outputAmount), BigInt(p.sellAmount));
    expect(typedDataDigest(partTyped)).toBe(p.digest);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature, BigInt(p.sellAmount))).toBe(true);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature)).toBe(false);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature, BigInt(p.sellAmount) + 1n)).toBe(false);
  });

  it("the taker's witness: the relay's typed data names no resolver, binds minReceived, and is the vector's", async () => {
    const o = v.takerOrder;
    expect(encodeType({ RfqOrder: RFQ_ORDER_TYPE }, "RfqOrder")).toBe(o.typeString);
    expect(keccak256(stringToHex(o.typeString))).toBe(o.typeHash);
    expect(encodeType(PERMIT_WITNESS_TYPES, "PermitWitnessTransferFrom")).toBe(o.permitTypeString);
    const chain = { ...vectorEvmChain(), permit2: o.permit2 };
    const t = vectorTerms({
      chain,
      corridor: v.auth.corridor,
      rfqId: v.rfqFill.rfqId,
      quoteId: o.quoteId,
      deadline: v.rfqFill.deadline,
      slippageBps: o.slippageBps,
    });
    const outputAmount = BigInt(v.rfqFill.outputAmount);
    const gasFee = BigInt(o.witness.gasFee);
    const fee = outputAmount - BigInt(o.received) - gasFee;
    const amounts = {
      outputAmount,
      fee,
      gasFee,
      received: BigInt(o.received),
      takerPays: BigInt(o.takerPays),
      proceeds: BigInt(o.takerPays),
    };
    const adapter = evmAdapter(chain);
    if (adapter.signing.kind !== "taker") throw new Error("EVM: the taker signs");
    const { typedData } = adapter.signing.takerSigning(t, { resolver: v.keys.evm.address, amounts }) as {
      typedData: Parameters<typeof typedDataFromJson>[0];
    };
    const witness = (typedData.message as { witness: Record<string, unknown> }).witness;
    expect(witness).toEqual(o.witness);
    expect(Object.keys(witness)).not.toContain("resolver");
    const typed = typedDataFromJson(typedData);
    expect(typedDataDigest(typed)).toBe(o.digest);
    expect(await recoverTypedDataAddress({ ...typed, signature: o.signature } as never)).toBe(v.keys.evm.address);
  });

  it("LimitFill: the relay's toSign, type string, digest and verdict are the vector's", async () => {
    const f = v.limitFill;
    expect(quoteIdToBytes32(f.quoteId)).toBe(f.quoteIdBytes32);
    expect(encodeType(LIMIT_FILL_TYPES, "LimitFill")).toBe(f.typeString);
    expect(keccak256(stringToHex(f.typeString))).toBe(f.typeHash);
    const limit = {
      limitOrderId: "lo_1",
      order: f.order,
      nonce: f.nonce,
      minOut: f.order.minOut,
      limitAmount: f.outputAmount,
    };
    const t = vectorTerms({
      chain: vectorEvmChain(),
      corridor: v.auth.corridor,
      rfqId: f.rfqId,
      quoteId: f.quoteId,
      deadline: f.deadline,
      limit,
    });
    const adapter = evmAdapter(vectorEvmChain());
    const toSign = JSON.parse(JSON.stringify(adapter.bidToSign(t)));
    expect(toSign).toEqual(f.toSign);
    expect(typedDataDigest(completeToSign(eip712ToSign(toSign), BigInt(f.outputAmount)))).toBe(f.digest);
    const keys = await vectorEvmKeys();
    expect(adapter.verifyBid(t, BigInt(f.outputAmount), keys, f.signature)).toBe(true);
    expect(adapter.verifyBid(t, BigInt(f.outputAmount) - 1n, keys, f.signature)).toBe(false);
  });

  it("Solana bid: the relay's text and verdict are the vector's", async () => {
    const s = v.solanaBid;
    const t = vectorTerms({
      chain: localSolana,
      corridor: s.corridor,
      rfqId: s.rfqId,
      quoteId: s.quoteId,
      deadline: s.deadline,
    });
    const adapter = solanaAdapter(localSolana);
    expect(adapter.bidToSign(t)).toEqual(s.toSign);
    expect(solanaBidText(t, s.outputAmount)).toBe(s.text);
    const keys = await vectorEvmKeys();
    expect(adapter.verifyBid(t, BigInt(s.outputAmount), keys, s.signature)).toBe(true);
    expect(adapter.verifyBid(t, BigInt(s.outputAmount) + 1n, keys, s.signature)).toBe(false);
    // A part (docs/legs.md): the whole's text with its part appended, verified over that part alone.
    const p = v.solanaBidPart;
    expect(solanaBidText(t, p.outputAmount, BigInt(p.sellAmount))).toBe(p.text);
    expect(completeBidText(s.toSign.text, BigInt(p.outputAmount), BigInt(p.sellAmount))).toBe(p.text);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature, BigInt(p.sellAmount))).toBe(true);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature, BigInt(p.sellAmount) + 1n)).toBe(false);
    expect(adapter.verifyBid(t, BigInt(p.outputAmount), keys, p.signature)).toBe(false);
    // A whole bid's text is the whole's, whether its sellAmount is left out or is the rfq's own.
    expect(solanaBidText(t, s.outputAmount, t.sellAmount)).toBe(s.text);
  });

  it("the AsyncAPI document's auth and bid examples are the vectors, their signatures real", () => {
    const [challenge] = RELAY_FRAME_EXAMPLES.challenge;
    const [auth] = NODE_FRAME_EXAMPLES.auth;
    expect([challenge?.corridor, challenge?.nonce]).toEqual([v.auth.corridor, v.auth.nonce]);
    expect([auth?.address, auth?.signature, auth?.solana]).toEqual([
      v.keys.evm.address,
      v.auth.signature,
      { address: v.keys.ed25519.publicKey, signature: v.auth.solanaSignature },
    ]);
    const [evmRfq, solanaRfq] = RELAY_FRAME_EXAMPLES.rfq;
    expect(evmRfq?.toSign).toEqual(v.rfqFill.toSign);
    expect(solanaRfq?.toSign).toEqual(v.solanaBid.toSign);
    const [evmBid, solanaBid] = NODE_FRAME_EXAMPLES.bid;
    expect([evmBid?.rfqId, evmBid?.outputAmount, evmBid?.signature]).toEqual([
      v.rfqFill.rfqId,
      v.rfqFill.outputAmount,
      v.rfqFill.signature,
    ]);
    expect([solanaBid?.rfqId, solanaBid?.outputAmount, solanaBid?.signature]).toEqual([
      v.solanaBid.rfqId,
      v.solanaBid.outputAmount,
      v.solanaBid.signature,
    ]);
  });
});
