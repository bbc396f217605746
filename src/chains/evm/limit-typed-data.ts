import type { Address, Hex } from "viem";
import { permit2Domain } from "./typed-data";

/**
 * What gets signed for a limit order on EVM chains. The reactor contract verifies exactly these types,
 * so any change here is a change of the contract (contracts/src/LimitReactor.sol) too.
 *
 * - The taker signs, once, a Permit2 `PermitWitnessTransferFrom` whose witness is the `LimitAuth`:
 *   Permit2 lets the reactor pull the sell amount (and the gas fee charged, when in the sell token) once,
 *   for this order only. The permit's nonce identifies the order.
 * - Each auction round's winning resolver signs a `LimitFill` under the reactor's own EIP-712 domain:
 *   its commitment to deliver `outputAmount` of the buy token for the order, in the round `quoteId`,
 *   before `deadline`.
 */

export const LIMIT_AUTH_TYPE = [
  { name: "taker", type: "address" },
  { name: "recipient", type: "address" },
  { name: "sellToken", type: "address" },
  { name: "buyToken", type: "address" },
  { name: "sellAmount", type: "uint256" },
  { name: "minOut", type: "uint256" },
  { name: "gasFeeToken", type: "address" },
  { name: "maxGasFee", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

export const LIMIT_PERMIT_WITNESS_TYPES = {
  PermitWitnessTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "witness", type: "LimitAuth" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
  LimitAuth: LIMIT_AUTH_TYPE,
} as const;

/** Permit2's `witnessTypeString` for the LimitAuth witness (the tail of the full type string). */
export const LIMIT_WITNESS_TYPE_STRING =
  "LimitAuth witness)LimitAuth(address taker,address recipient,address sellToken,address buyToken,uint256 sellAmount,uint256 minOut,address gasFeeToken,uint256 maxGasFee,uint256 deadline)TokenPermissions(address token,uint256 amount)";

/** The order is nested whole: its struct hash in the fill is the taker's witness hash. */
export const LIMIT_FILL_TYPES = {
  LimitFill: [
    { name: "quoteId", type: "bytes32" },
    { name: "order", type: "LimitAuth" },
    { name: "nonce", type: "uint256" },
    { name: "outputAmount", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  LimitAuth: LIMIT_AUTH_TYPE,
} as const;

export const REACTOR_DOMAIN_NAME = "Relay Reactor";
export const REACTOR_DOMAIN_VERSION = "1";

export interface LimitAuth {
  taker: Address;
  recipient: Address;
  sellToken: Address;
  buyToken: Address;
  sellAmount: bigint;
  minOut: bigint;
  gasFeeToken: Address;
  maxGasFee: bigint;
  deadline: bigint;
}

export interface LimitFill {
  /** The auction round's quote id, as `quoteIdToBytes32` makes it. */
  quoteId: Hex;
  order: LimitAuth;
  /** The order's Permit2 nonce. */
  nonce: bigint;
  outputAmount: bigint;
  deadline: bigint;
}

/** A `LimitAuth` from its JSON form (addresses as they are, amounts and the deadline as decimal strings). */
export function limitAuthOf(json: Record<string, string>): LimitAuth {
  const field = (name: keyof LimitAuth) => {
    const value = json[name];
    if (value === undefined) throw new Error(`the limit order has no ${name}`);
    return value;
  };
  return {
    taker: field("taker") as Address,
    recipient: field("recipient") as Address,
    sellToken: field("sellToken") as Address,
    buyToken: field("buyToken") as Address,
    sellAmount: BigInt(field("sellAmount")),
    minOut: BigInt(field("minOut")),
    gasFeeToken: field("gasFeeToken") as Address,
    maxGasFee: BigInt(field("maxGasFee")),
    deadline: BigInt(field("deadline")),
  };
}

/** What the taker's permit allows: the sell amount, plus the most gas fee when it is in the sell token. */
export function limitPermitAmount(order: LimitAuth): bigint {
  return order.sellAmount + (order.gasFeeToken.toLowerCase() === order.sellToken.toLowerCase() ? order.maxGasFee : 0n);
}

export function reactorDomain(chainId: number, reactor: Address) {
  return {
    name: REACTOR_DOMAIN_NAME,
    version: REACTOR_DOMAIN_VERSION,
    chainId,
    verifyingContract: reactor,
  } as const;
}

/** The typed data the taker signs with eth_signTypedData_v4 when placing the order. */
export function limitTakerTypedData(args: {
  chainId: number;
  permit2: Address;
  reactor: Address;
  nonce: bigint;
  order: LimitAuth;
}) {
  return {
    domain: permit2Domain(args.chainId, args.permit2),
    types: LIMIT_PERMIT_WITNESS_TYPES,
    primaryType: "PermitWitnessTransferFrom" as const,
    message: {
      permitted: { token: args.order.sellToken, amount: limitPermitAmount(args.order) },
      spender: args.reactor,
      nonce: args.nonce,
      deadline: args.order.deadline,
      witness: args.order,
    },
  };
}

/** The typed data the winning resolver signs for its fill of the order. */
export function limitFillTypedData(args: { chainId: number; reactor: Address; fill: LimitFill }) {
  return {
    domain: reactorDomain(args.chainId, args.reactor),
    types: LIMIT_FILL_TYPES,
    primaryType: "LimitFill" as const,
    message: args.fill,
  };
}
