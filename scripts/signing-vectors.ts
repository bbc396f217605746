/**
 * Writes docs/signing-vectors.json: the test vectors of docs/resolver-protocol.md ("Test vectors"), made
 * from the definitions that page gives with viem and @noble/curves alone, never with the relay's own
 * signing code, so that test/unit/signing-vectors.test.ts checks the relay against an independent
 * reading of the page. Deterministic: ECDSA nonces by RFC 6979, ed25519 by RFC 8032.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ed25519 } from "@noble/curves/ed25519";
import { base58, hex } from "@scure/base";
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  hashMessage,
  hashStruct,
  hashTypedData,
  keccak256,
  stringToHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

const root = resolve(import.meta.dirname, "..");
const VECTORS_PATH = join(root, "docs/signing-vectors.json");

// Publicly known test keys: anvil's account 1, and the secret key of RFC 8032's first ed25519 test.
const evmPrivateKey: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const ed25519Seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

const account = privateKeyToAccount(evmPrivateKey);
const solanaKey = base58.encode(ed25519.getPublicKey(hex.decode(ed25519Seed)));
const signText = (text: string) => base58.encode(ed25519.sign(new TextEncoder().encode(text), hex.decode(ed25519Seed)));

const DOMAIN_TYPE = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
const RFQ_FILL_TYPE =
  "RfqFill(bytes32 quoteId,address taker,address sellToken,uint256 sellAmount,address buyToken,uint256 outputAmount,uint256 deadline)";
const RFQ_ORDER_TYPE =
  "RfqOrder(bytes32 quoteId,address recipient,address buyToken,uint256 minReceived,address gasFeeToken,uint256 gasFee,uint256 deadline)";
const PERMIT_WITNESS_TYPE = `PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,RfqOrder witness)${RFQ_ORDER_TYPE}TokenPermissions(address token,uint256 amount)`;
const LIMIT_AUTH_TYPE =
  "LimitAuth(address taker,address recipient,address sellToken,address buyToken,uint256 sellAmount,uint256 minOut,address gasFeeToken,uint256 maxGasFee,uint256 deadline)";
const LIMIT_FILL_TYPE = `LimitFill(bytes32 quoteId,LimitAuth order,uint256 nonce,uint256 outputAmount,uint256 deadline)${LIMIT_AUTH_TYPE}`;

/** The page's rule: the 32 hex digits after `q_`, as 16 bytes, then 16 zero bytes. */
const quoteIdBytes32 = (quoteId: string): Hex => `0x${quoteId.slice(2)}${"0".repeat(32)}`;

const fieldsOf = (typeString: string) =>
  (/^\w+\(([^)]*)\)/.exec(typeString)?.[1] ?? "").split(",").map((f) => {
    const [type, name] = f.split(" ") as [string, string];
    return { name, type };
  });

function domainSeparator(name: string, chainId: number, verifyingContract: Address): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
      [
        keccak256(stringToHex(DOMAIN_TYPE)),
        keccak256(stringToHex(name)),
        keccak256(stringToHex("1")),
        BigInt(chainId),
        verifyingContract,
      ],
    ),
  );
}

// Auth: EIP-191 by the EVM key, and ed25519 by the Solana key, over one text.
const corridor = "31337:0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const nonce = "5a1c9e0b7d2f4a6c8e1b3d5f7a9c0e2b";
const authText = `relay-node-auth|${corridor}|${nonce}`;

// An RFQ bid on EVM.
const chainId = 31337;
const executor: Address = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707";
const reactor: Address = "0x0165878A594ca255338adfa4d48449f69242Eb8F";
const rfq = {
  rfqId: "rfq_91c2a0e4d3b54f6f8a1c2e3d4b5a6978",
  quoteId: "q_0be4a1d2c3b4a5968778695a4b3c2d1e",
  taker: "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address,
  sellToken: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" as Address,
  sellAmount: "1580000000",
  buyToken: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" as Address,
  deadline: 1795000090,
};
const outputAmount = "999500";
const rfqFillToSign = {
  scheme: "eip712" as const,
  domain: { name: "Relay Executor", version: "1", chainId, verifyingContract: executor },
  types: { RfqFill: fieldsOf(RFQ_FILL_TYPE) },
  primaryType: "RfqFill",
  message: {
    quoteId: quoteIdBytes32(rfq.quoteId),
    taker: rfq.taker,
    sellToken: rfq.sellToken,
    sellAmount: rfq.sellAmount,
    buyToken: rfq.buyToken,
    outputAmount: null,
    deadline: String(rfq.deadline),
  },
};
const rfqFillTyped = {
  domain: rfqFillToSign.domain,
  types: rfqFillToSign.types,
  primaryType: "RfqFill",
  message: {
    ...rfqFillToSign.message,
    sellAmount: BigInt(rfq.sellAmount),
    outputAmount: BigInt(outputAmount),
    deadline: BigInt(rfq.deadline),
  },
} as const;

// A part of that rfq (docs/legs.md): 60 % of its sell amount, signed with the part in `sellAmount`.
const part = { sellAmount: "948000000", outputAmount: "599700" };
const rfqFillPartTyped = {
  ...rfqFillTyped,
  message: { ...rfqFillTyped.message, sellAmount: BigInt(part.sellAmount), outputAmount: BigInt(part.outputAmount) },
} as const;

// The taker's Permit2 transfer of that quote, whose witness binds what it gets at least, not who pays it:
// 1 % of slippage under a `received` of 998401 (999500 less a fee of 999, 10 bps rounded down, and a gas fee of 100).
const permit2: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const takerWitness = {
  quoteId: quoteIdBytes32(rfq.quoteId),
  recipient: rfq.taker,
  buyToken: rfq.buyToken,
  minReceived: "988416",
  gasFeeToken: rfq.buyToken,
  gasFee: "100",
  deadline: String(rfq.deadline),
};
const takerTypes = {
  PermitWitnessTransferFrom: fieldsOf(PERMIT_WITNESS_TYPE),
  TokenPermissions: fieldsOf("TokenPermissions(address token,uint256 amount)"),
  RfqOrder: fieldsOf(RFQ_ORDER_TYPE),
};
const witnessValue = {
  ...takerWitness,
  minReceived: BigInt(takerWitness.minReceived),
  gasFee: BigInt(takerWitness.gasFee),
  deadline: BigInt(takerWitness.deadline),
};
const takerTyped = {
  domain: { name: "Permit2", chainId, verifyingContract: permit2 },
  types: takerTypes,
  primaryType: "PermitWitnessTransferFrom",
  message: {
    permitted: { token: rfq.sellToken, amount: BigInt(rfq.sellAmount) },
    spender: executor,
    // The quote id's 16 bytes, as a number.
    nonce: BigInt(`0x${rfq.quoteId.slice(2)}`),
    deadline: BigInt(rfq.deadline),
    witness: witnessValue,
  },
} as const;

// A limit order's round on EVM.
const round = { rfqId: "rfq_3d5f7a9c0e2b4d6f8a1c3e5a7c9e1b3d", quoteId: "q_7c9e1b3d5f7a9c0e2b4d6f8a1c3e5a7c" };
const order = {
  taker: rfq.taker,
  recipient: rfq.taker,
  sellToken: rfq.sellToken,
  buyToken: rfq.buyToken,
  sellAmount: "1580000000",
  minOut: "950000",
  gasFeeToken: rfq.buyToken,
  maxGasFee: "150000",
  deadline: "1795600000",
};
const limitNonce = "52871946173951234";
const limitOutput = "1001000";
const limitFillToSign = {
  scheme: "eip712" as const,
  domain: { name: "Relay Reactor", version: "1", chainId, verifyingContract: reactor },
  types: { LimitFill: fieldsOf(LIMIT_FILL_TYPE), LimitAuth: fieldsOf(LIMIT_AUTH_TYPE) },
  primaryType: "LimitFill",
  message: {
    quoteId: quoteIdBytes32(round.quoteId),
    order,
    nonce: limitNonce,
    outputAmount: null,
    deadline: String(rfq.deadline),
  },
};
const limitFillTyped = {
  domain: limitFillToSign.domain,
  types: limitFillToSign.types,
  primaryType: "LimitFill",
  message: {
    quoteId: limitFillToSign.message.quoteId,
    order: {
      ...order,
      sellAmount: BigInt(order.sellAmount),
      minOut: BigInt(order.minOut),
      maxGasFee: BigInt(order.maxGasFee),
      deadline: BigInt(order.deadline),
    },
    nonce: BigInt(limitNonce),
    outputAmount: BigInt(limitOutput),
    deadline: BigInt(rfq.deadline),
  },
} as const;

// A bid on Solana.
const solanaBid = {
  corridor: "103:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:So11111111111111111111111111111111111111112",
  rfqId: "rfq_9c0e2b4d6f8a1c3e5a7c9e1b3d5f7a9c",
  quoteId: "q_41a3c5e7092b4d6f8a1c3e5a7c9e1b3d",
  deadline: 1795000090,
};
const solanaOutput = "1000000";
const solanaTemplate = `relay-solana-bid|${solanaBid.corridor}|${solanaBid.rfqId}|${solanaBid.quoteId}|{outputAmount}|${solanaBid.deadline}`;
const solanaText = solanaTemplate.replace("{outputAmount}", solanaOutput);
// A part of that rfq (docs/legs.md): the whole's text with `|<sellAmount>` appended, 60 % of the vectors' sell amount.
const solanaPart = { sellAmount: "948000000", outputAmount: "600000" };
const solanaPartText = `${solanaTemplate.replace("{outputAmount}", solanaPart.outputAmount)}|${solanaPart.sellAmount}`;

const vectors = {
  keys: {
    evm: { privateKey: evmPrivateKey, address: account.address },
    ed25519: { seed: ed25519Seed, publicKey: solanaKey },
  },
  auth: {
    corridor,
    nonce,
    text: authText,
    eip191Digest: hashMessage(authText),
    signature: await account.signMessage({ message: authText }),
    solanaSignature: signText(authText),
  },
  rfqFill: {
    chainId,
    executor,
    ...rfq,
    outputAmount,
    quoteIdBytes32: quoteIdBytes32(rfq.quoteId),
    domainType: DOMAIN_TYPE,
    domainSeparator: domainSeparator("Relay Executor", chainId, executor),
    typeString: RFQ_FILL_TYPE,
    typeHash: keccak256(stringToHex(RFQ_FILL_TYPE)),
    toSign: rfqFillToSign,
    digest: hashTypedData(rfqFillTyped),
    signature: await account.signTypedData(rfqFillTyped),
  },
  rfqFillPart: {
    ...part,
    digest: hashTypedData(rfqFillPartTyped),
    signature: await account.signTypedData(rfqFillPartTyped),
  },
  takerOrder: {
    chainId,
    permit2,
    executor,
    quoteId: rfq.quoteId,
    sellToken: rfq.sellToken,
    takerPays: rfq.sellAmount,
    received: "998401",
    slippageBps: 100,
    witness: takerWitness,
    typeString: RFQ_ORDER_TYPE,
    typeHash: keccak256(stringToHex(RFQ_ORDER_TYPE)),
    permitTypeString: PERMIT_WITNESS_TYPE,
    witnessHash: hashStruct({ data: witnessValue, primaryType: "RfqOrder", types: takerTypes }),
    digest: hashTypedData(takerTyped),
    signature: await account.signTypedData(takerTyped),
  },
  limitFill: {
    chainId,
    reactor,
    ...round,
    order,
    nonce: limitNonce,
    deadline: rfq.deadline,
    outputAmount: limitOutput,
    quoteIdBytes32: quoteIdBytes32(round.quoteId),
    domainSeparator: domainSeparator("Relay Reactor", chainId, reactor),
    typeString: LIMIT_FILL_TYPE,
    typeHash: keccak256(stringToHex(LIMIT_FILL_TYPE)),
    toSign: limitFillToSign,
    digest: hashTypedData(limitFillTyped),
    signature: await account.signTypedData(limitFillTyped),
  },
  solanaBid: {
    ...solanaBid,
    outputAmount: solanaOutput,
    toSign: { scheme: "ed25519", text: solanaTemplate },
    text: solanaText,
    signature: signText(solanaText),
  },
  solanaBidPart: {
    ...solanaPart,
    text: solanaPartText,
    signature: signText(solanaPartText),
  },
};

writeFileSync(VECTORS_PATH, `${JSON.stringify(vectors, null, 2)}\n`);
console.log(`signing-vectors: wrote ${VECTORS_PATH}`);
