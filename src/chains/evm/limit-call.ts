import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { z } from "zod";
import type { FillCall, FillRequest } from "../settler";
import { limitReactorAbi } from "./abi/limit-reactor";
import { type LimitAuth, limitAuthOf, limitTakerTypedData } from "./limit-typed-data";
import { quoteIdToBytes32 } from "./typed-data";

const uint = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

/**
 * A limit round's stored `signing` (src/chains/evm/adapter.ts, `takerSigning` with `terms.limit`, plus
 * what the auction adds): the order the taker signed and its nonce, the winner, its output and fill
 * signature, the fill's deadline and the gas fee the keeper charges.
 */
const storedLimitSigning = z.object({
  limit: z.object({ limitOrderId: z.string(), order: z.record(z.string(), z.string()), nonce: uint }),
  resolver: address,
  gasFee: uint,
  outputAmount: uint,
  resolverSignature: hex,
  deadline: uint,
});

export interface LimitSigning {
  limitOrderId: string;
  order: LimitAuth;
  nonce: bigint;
  bid: { resolver: Address; quoteId: Hex; outputAmount: bigint; deadline: bigint };
  resolverSignature: Hex;
  gasFee: bigint;
}

/** Whether a stored quote is a limit order's round (its fill goes to the reactor, not the executor). */
export const isLimitSigning = (signing: unknown): boolean =>
  typeof signing === "object" && signing !== null && "limit" in signing;

export function parseLimitSigning(quoteId: string, signing: unknown): LimitSigning {
  const result = storedLimitSigning.safeParse(signing);
  if (!result.success) throw new Error(`the limit round's signing data is malformed: ${result.error.message}`);
  const s = result.data;
  return {
    limitOrderId: s.limit.limitOrderId,
    order: limitAuthOf(s.limit.order),
    nonce: s.limit.nonce,
    bid: {
      resolver: getAddress(s.resolver),
      quoteId: quoteIdToBytes32(quoteId),
      outputAmount: s.outputAmount,
      deadline: s.deadline,
    },
    resolverSignature: s.resolverSignature as Hex,
    gasFee: s.gasFee,
  };
}

/** The typed data the taker signed when placing the order: what its signature is checked against. */
export function limitTakerTyped(
  chainId: number,
  contracts: { permit2: Address; reactor: Address },
  limit: LimitSigning,
) {
  return limitTakerTypedData({ chainId, ...contracts, nonce: limit.nonce, order: limit.order });
}

/**
 * The reactor call that settles a limit round (docs/contracts.md, "Limit orders: the reactor"):
 * `executeLimit`, or `executeLimitWithPermit` when the taker's EIP-2612 permit for Permit2 came along.
 */
export function limitCall(reactor: Address, request: FillRequest): FillCall {
  const limit = parseLimitSigning(request.quoteId, request.signing);
  const args = [
    limit.order,
    limit.nonce,
    request.signature as Hex,
    limit.bid,
    limit.resolverSignature,
    limit.gasFee,
  ] as const;
  const data = request.permit
    ? encodeFunctionData({
        abi: limitReactorAbi,
        functionName: "executeLimitWithPermit",
        args: [
          ...args,
          {
            value: BigInt(request.permit.value),
            deadline: BigInt(request.permit.deadline),
            v: request.permit.v,
            r: request.permit.r as Hex,
            s: request.permit.s as Hex,
          },
        ],
      })
    : encodeFunctionData({ abi: limitReactorAbi, functionName: "executeLimit", args });
  return { to: reactor, data };
}
