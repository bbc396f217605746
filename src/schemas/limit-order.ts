import { z } from "@hono/zod-openapi";
import { Address, Amount, ChainIdQuery, pageQuery, Timestamp, Uint256 } from "./common";
import { Erc2612Permit } from "./execution";

/** Limit orders' requests and records 2.7 and 2.8 (docs/limit-orders.md). */

export const LimitOrderStatus = z.enum(["open", "filling", "filled", "cancelled", "expired"]);
export type LimitOrderStatus = z.infer<typeof LimitOrderStatus>;

const positive = (amount: typeof Uint256) => amount.refine((v) => v !== "0", "must be more than zero");
const address = z.string().min(1).max(64);
const chainId = z.number().int().positive();

export const LimitOrderPrepareRequest = z
  .object({
    chainId: chainId.optional().openapi({ description: "defaults to the primary EVM chain" }),
    sellToken: address,
    buyToken: address,
    sellAmount: positive(Uint256),
    limitAmount: positive(Uint256).openapi({
      description: "the whole sell amount at the taker's price, in buy-token base units, before fees",
    }),
    taker: address,
    recipient: address.optional().openapi({ description: "defaults to the taker" }),
    expiresInSeconds: z
      .number()
      .int()
      .openapi({ description: "within the configuration's limitOrders.minExpirySeconds..maxExpirySeconds" }),
  })
  .openapi("LimitOrderPrepareRequest");

export type LimitOrderPrepareRequest = z.infer<typeof LimitOrderPrepareRequest>;

/** Record 2.7: the terms the relay derived and the typed data the taker signs. */
export const LimitOrderDraft = z
  .object({
    chainId,
    executor: Address.openapi({ description: "the contract that executes the order: the chain's reactor" }),
    permit2: Address,
    draft: z.object({
      minOut: Amount,
      gasFeeToken: Address,
      maxGasFee: Amount,
      permitAmount: Amount,
      nonce: Amount.openapi({ description: "the Permit2 nonce the relay chose; it identifies the order" }),
      deadline: Amount.openapi({ description: "unix seconds" }),
    }),
    typedData: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Permit2 PermitWitnessTransferFrom with a LimitAuth witness, for eth_signTypedData_v4" }),
    fee: z.object({
      token: Address.nullable().openapi({ description: "null when the chain's fee is 0" }),
      bps: z.number().int(),
      atLimit: Amount,
    }),
    gasFeeNow: Amount,
    expiresAt: Timestamp,
  })
  .openapi("LimitOrderDraft");

export type LimitOrderDraft = z.infer<typeof LimitOrderDraft>;

export const LimitOrderPlaceRequest = z
  .object({
    draft: LimitOrderDraft.openapi({ description: "the answer of prepare, unchanged" }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x hex signature")
      .openapi({ description: "the taker's eth_signTypedData_v4 signature over the draft's typedData" }),
    erc2612: Erc2612Permit.optional().openapi({
      description: "the taker's EIP-2612 approval of Permit2, when the sell token has no Permit2 allowance",
    }),
  })
  .openapi("LimitOrderPlaceRequest");

export type LimitOrderPlaceRequest = z.infer<typeof LimitOrderPlaceRequest>;

/** Record 2.8, with the order's terms beside it. */
export const LimitOrder = z
  .object({
    limitOrderId: z.string(),
    chainId: z.number().int(),
    status: LimitOrderStatus,
    gasFee: z.object({ token: Address, max: Amount }),
    permit: z.object({ token: Address, amount: Amount, nonce: Amount, deadline: Amount }),
    expiresAt: Timestamp,
    quoteId: z.string().nullable().openapi({ description: "the quote that fills it" }),
    attempts: z.number().int().openapi({ description: "auctions run so far" }),
    lastError: z.string().nullable(),
    lastCheckedAt: Timestamp.nullable(),
    bestReceived: Amount.nullable().openapi({ description: "the best offer at the last auction" }),
    cancelMessage: z.string().openapi({ description: "the EIP-191 text to sign to cancel" }),
    revoke: z
      .object({ permit2: Address, to: Address, wordPos: Amount, mask: Amount, data: z.string() })
      .openapi({ description: "Permit2's invalidateUnorderedNonces(wordPos, mask), which ends the signature itself" }),
    taker: Address,
    recipient: Address,
    sellToken: Address,
    buyToken: Address,
    sellAmount: Amount,
    limitAmount: Amount,
    minOut: Amount,
    fee: z.object({ token: Address.nullable(), bps: z.number().int(), atLimit: Amount }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("LimitOrder");

export type LimitOrder = z.infer<typeof LimitOrder>;

export const LimitListQuery = z.object({
  taker: address,
  status: LimitOrderStatus.optional(),
  chainId: ChainIdQuery.openapi({ type: "string", description: "defaults to the primary EVM chain" }),
  ...pageQuery("orders"),
});

export type LimitListQuery = z.output<typeof LimitListQuery>;

export const LimitOrderPage = z
  .object({
    limitOrders: z.array(LimitOrder),
    nextCursor: z.string().nullable().openapi({ description: "null on the last page" }),
  })
  .openapi("LimitOrderPage");

export type LimitOrderPage = z.infer<typeof LimitOrderPage>;

export const CancelLimitOrderRequest = z.object({ signature: z.string().max(200) }).openapi("CancelLimitOrderRequest");

/**
 * An order as stored (migrations 0001 and 0006; docs/limit-orders.md, "Placing"): the record's own
 * fields, flat, with what the keeper needs to fill it. `taker` is keyed as the chain normalises it.
 */
export type LimitOrderRow = Pick<
  LimitOrder,
  | "limitOrderId"
  | "chainId"
  | "status"
  | "taker"
  | "recipient"
  | "sellToken"
  | "buyToken"
  | "sellAmount"
  | "limitAmount"
  | "minOut"
  | "revoke"
  | "expiresAt"
  | "quoteId"
  | "attempts"
  | "lastError"
  | "lastCheckedAt"
  | "bestReceived"
  | "createdAt"
  | "updatedAt"
> & {
  /** The canonical corridor key (src/chains/corridor-keys.ts) the order is auctioned on. */
  corridor: string;
  feeToken: LimitOrder["fee"]["token"];
  feeBps: LimitOrder["fee"]["bps"];
  feeAtLimit: LimitOrder["fee"]["atLimit"];
  gasFeeToken: LimitOrder["gasFee"]["token"];
  gasFeeNow: LimitOrderDraft["gasFeeNow"];
  maxGasFee: LimitOrder["gasFee"]["max"];
  permitToken: LimitOrder["permit"]["token"];
  permitAmount: LimitOrder["permit"]["amount"];
  /** The Permit2 nonce, decimal. */
  nonce: LimitOrder["permit"]["nonce"];
  /** Unix seconds, decimal. */
  deadline: LimitOrder["permit"]["deadline"];
  /** The typed data the taker signed, as prepare returned it. */
  typedData: LimitOrderDraft["typedData"];
  signature: string;
  erc2612: Erc2612Permit | null;
};

/** An order the keeper's job may auction (docs/limit-orders.md, "The keeper's job"): a stored one, open. */
export type OpenLimitOrder = LimitOrderRow & { status: "open" };

/** What one of the keeper's auctions of an order found: the fields of the order it updates. */
/** What one pass found of an order: `auctioned` false when it was checked but no resolver was asked. */
export type LimitCheck = Pick<LimitOrderRow, "limitOrderId" | "bestReceived" | "lastError"> & {
  lastCheckedAt: string;
  auctioned: boolean;
};

/** An order that moved, and the corridor whose object hosts its event stream (docs/api.md, "Event streams"). */
export type MovedLimitOrder = Pick<LimitOrderRow, "limitOrderId" | "corridor">;

/** Where a page of a taker's orders starts: after this order, newest first (docs/limit-orders.md, "Reading and listing"). */
export type PagePosition = Pick<LimitOrderRow, "createdAt" | "limitOrderId">;
