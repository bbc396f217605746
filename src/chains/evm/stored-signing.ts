import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { z } from "zod";
import type { FillCall, FillingBid, FillRequest } from "../settler";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import type { RfqBid, RfqOrder } from "./typed-data";

const uint = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

/**
 * The part of a quote's stored `signing` the keeper needs: the Permit2 message, and the filling bid (its
 * resolver, its output and its signature), which a fade replaces with the next offer's (src/auction/quote-row.ts).
 */
const storedSigning = z.object({
  typedData: z.object({
    message: z.object({
      permitted: z.object({ token: address, amount: uint }),
      spender: address,
      nonce: uint,
      deadline: uint,
      witness: z.object({
        quoteId: hex,
        recipient: address,
        buyToken: address,
        minReceived: uint,
        gasFeeToken: address,
        gasFee: uint,
        deadline: uint,
      }),
    }),
  }),
  resolver: address,
  outputAmount: uint,
  resolverSignature: hex,
  /** A fill of several makers (docs/legs.md): each leg, its part and its signature; absent for one bid. */
  legs: z
    .array(z.object({ resolver: address, sellAmount: uint, outputAmount: uint, signature: hex }))
    .min(2)
    .optional(),
});

export interface ParsedSigning {
  order: RfqOrder;
  /** The legs the relay fills with: the filling bid for the whole of the swap's sell amount, or each maker's part. */
  bids: RfqBid[];
  /** The quote's resolver: its winner, or its largest leg's. */
  resolver: Address;
  permit: { permitted: { token: Address; amount: bigint }; nonce: bigint; deadline: bigint };
}

/** The swap's sell amount, the resolvers' whole: what the taker pays less the gas fee when that is in the sell token. */
function swapSellAmount(permitted: { token: string; amount: bigint }, gasFeeToken: string, gasFee: bigint): bigint {
  return permitted.token.toLowerCase() === gasFeeToken.toLowerCase() ? permitted.amount - gasFee : permitted.amount;
}

export function parseSigning(signing: unknown): ParsedSigning {
  const result = storedSigning.safeParse(signing);
  if (!result.success) throw new Error(`the quote's signing data is malformed: ${result.error.message}`);
  const { message } = result.data.typedData;
  const w = message.witness;
  return {
    order: {
      quoteId: w.quoteId as Hex,
      recipient: getAddress(w.recipient),
      buyToken: getAddress(w.buyToken),
      minReceived: w.minReceived,
      gasFeeToken: getAddress(w.gasFeeToken),
      gasFee: w.gasFee,
      deadline: w.deadline,
    },
    bids: result.data.legs?.map((l) => ({ ...l, resolver: getAddress(l.resolver), signature: l.signature as Hex })) ?? [
      {
        resolver: getAddress(result.data.resolver),
        sellAmount: swapSellAmount(message.permitted, w.gasFeeToken, w.gasFee),
        outputAmount: result.data.outputAmount,
        signature: result.data.resolverSignature as Hex,
      },
    ],
    resolver: getAddress(result.data.resolver),
    permit: {
      permitted: { token: getAddress(message.permitted.token), amount: message.permitted.amount },
      nonce: message.nonce,
      deadline: message.deadline,
    },
  };
}

/**
 * The stored signing with other offers' bids in place of the winner's: the taker's witness names no resolver,
 * so the same signature fills it (docs/settlement.md, "When the winner fades"). One whole bid fills the whole in
 * place of every leg; several parts are the legs (docs/legs.md), the first the quote's resolver. Null for a
 * limit order's round, whose signing has no such bid, and for no bids.
 */
export function withBid(signing: unknown, bids: readonly FillingBid[]): Record<string, unknown> | null {
  const [lead] = bids;
  if (!lead || !storedSigning.safeParse(signing).success) return null;
  const { legs: _legs, ...kept } = signing as Record<string, unknown>;
  const legs =
    bids.length > 1
      ? bids.map((b) => ({
          resolver: b.resolver,
          sellAmount: b.sellAmount,
          outputAmount: b.outputAmount,
          signature: b.signature,
        }))
      : null;
  if (legs?.some((l) => l.sellAmount === null)) return null;
  const outputAmount = bids.reduce((sum, b) => sum + BigInt(b.outputAmount), 0n).toString();
  return {
    ...kept,
    resolver: lead.resolver,
    outputAmount,
    resolverSignature: lead.signature,
    ...(legs ? { legs } : {}),
  };
}

/**
 * The executor call that settles the request: `fill`, or `fillWithPermit` when a permit came along, with the
 * filling bid as its one leg, or every maker's leg.
 */
export function fillCall(executor: Address, request: FillRequest): FillCall {
  const { order, permit, bids } = parseSigning(request.signing);
  const taker = getAddress(request.taker);
  const signature = request.signature as Hex;
  const data = request.permit
    ? encodeFunctionData({
        abi: rfqExecutorAbi,
        functionName: "fillWithPermit",
        args: [
          order,
          permit,
          taker,
          signature,
          bids,
          {
            value: BigInt(request.permit.value),
            deadline: BigInt(request.permit.deadline),
            v: request.permit.v,
            r: request.permit.r as Hex,
            s: request.permit.s as Hex,
          },
        ],
      })
    : encodeFunctionData({
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: [order, permit, taker, signature, bids],
      });
  return { to: executor, data };
}
