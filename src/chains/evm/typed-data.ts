import { type Address, type Hex, pad } from "viem";

/**
 * What gets signed on EVM chains. The executor contract verifies exactly these types, so any change
 * here is a change of the contract (contracts/src/RfqExecutor.sol) too.
 *
 * - The taker signs a Permit2 `PermitWitnessTransferFrom` whose witness is the `RfqOrder`: Permit2 lets
 *   the executor pull `takerPays` of the sell token once, for this order only. The order binds what the
 *   taker gives and gets at least (`minReceived`), not which resolver pays it, so the keeper may fill it
 *   with the next bid when the winner fades (docs/settlement.md, "When the winner fades").
 * - Each resolver signs an `RfqFill` under the executor's own EIP-712 domain: its commitment to deliver
 *   `outputAmount` of the buy token for `sellAmount` of the sell token before `deadline`.
 */

export const RFQ_ORDER_TYPE = [
  { name: "quoteId", type: "bytes32" },
  { name: "recipient", type: "address" },
  { name: "buyToken", type: "address" },
  { name: "minReceived", type: "uint256" },
  { name: "gasFeeToken", type: "address" },
  { name: "gasFee", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

export const PERMIT_WITNESS_TYPES = {
  PermitWitnessTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "witness", type: "RfqOrder" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
  RfqOrder: RFQ_ORDER_TYPE,
} as const;

export const RFQ_FILL_TYPES = {
  RfqFill: [
    { name: "quoteId", type: "bytes32" },
    { name: "taker", type: "address" },
    { name: "sellToken", type: "address" },
    { name: "sellAmount", type: "uint256" },
    { name: "buyToken", type: "address" },
    { name: "outputAmount", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** EIP-2612 `permit`, which the taker signs when Permit2 has no allowance of the sell token yet. */
export const ERC2612_PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const EXECUTOR_DOMAIN_NAME = "Relay Executor";
export const EXECUTOR_DOMAIN_VERSION = "1";

export interface RfqOrder {
  quoteId: Hex;
  recipient: Address;
  buyToken: Address;
  minReceived: bigint;
  gasFeeToken: Address;
  gasFee: bigint;
  deadline: bigint;
}

/**
 * One leg of an executor call: its resolver, the part of the swap's sell amount it takes, the output it gives for
 * it, and its `RfqFill` signature over exactly those (docs/contracts.md, "The fill call").
 */
export interface RfqBid {
  resolver: Address;
  sellAmount: bigint;
  outputAmount: bigint;
  signature: Hex;
}

export interface RfqFill {
  quoteId: Hex;
  taker: Address;
  sellToken: Address;
  sellAmount: bigint;
  buyToken: Address;
  outputAmount: bigint;
  deadline: bigint;
}

/** A quote id (`q_` + 16 bytes hex) as the bytes32 the contracts see: the 16 bytes, right-padded. */
export function quoteIdToBytes32(quoteId: string): Hex {
  const hex = quoteId.slice(2);
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a quote id: ${quoteId}`);
  return pad(`0x${hex}`, { dir: "right", size: 32 });
}

/** The Permit2 nonce of a quote: its 128 random bits, so each quote can be settled once. */
export function quoteNonce(quoteId: string): bigint {
  return BigInt(`0x${quoteId.slice(2)}`);
}

/**
 * Permit2's EIP-712 domain type. Wallets' eth_signTypedData_v4 hashes the domain by the `EIP712Domain`
 * type it is given, so what a taker signs spells it out.
 */
export const PERMIT2_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

export function permit2Domain(chainId: number, permit2: Address) {
  return { name: "Permit2", chainId, verifyingContract: permit2 } as const;
}

export function executorDomain(chainId: number, executor: Address) {
  return {
    name: EXECUTOR_DOMAIN_NAME,
    version: EXECUTOR_DOMAIN_VERSION,
    chainId,
    verifyingContract: executor,
  } as const;
}

/** The typed data the taker signs with eth_signTypedData_v4. */
export function takerTypedData(args: {
  chainId: number;
  permit2: Address;
  executor: Address;
  sellToken: Address;
  takerPays: bigint;
  nonce: bigint;
  deadline: bigint;
  order: RfqOrder;
}) {
  return {
    domain: permit2Domain(args.chainId, args.permit2),
    types: PERMIT_WITNESS_TYPES,
    primaryType: "PermitWitnessTransferFrom" as const,
    message: {
      permitted: { token: args.sellToken, amount: args.takerPays },
      spender: args.executor,
      nonce: args.nonce,
      deadline: args.deadline,
      witness: args.order,
    },
  };
}

/** The typed data a resolver signs for its bid. */
export function fillTypedData(args: { chainId: number; executor: Address; fill: RfqFill }) {
  return {
    domain: executorDomain(args.chainId, args.executor),
    types: RFQ_FILL_TYPES,
    primaryType: "RfqFill" as const,
    message: args.fill,
  };
}

/** The relay's quote id of a bytes32 quote id (the inverse of `quoteIdToBytes32`). */
export function bytes32ToQuoteId(value: Hex): string {
  return `q_${value.slice(2, 34).toLowerCase()}`;
}

/** Typed data carries bigints; on the wire and in D1 they are decimal strings. */
export function withBigintsAsStrings<T>(value: T): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(withBigintsAsStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withBigintsAsStrings(v);
    return out;
  }
  return value;
}
