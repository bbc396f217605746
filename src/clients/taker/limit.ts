/**
 * The taker's side of limit orders (docs/limit-orders.md): prepare a draft from a price, check it says
 * what was asked and sign its Permit2 typed data, place it, follow it, cancel it. Shapes are the spec's
 * records 2.7 (draft) and 2.8 (order), as the OpenAPI document gives them (./api.ts).
 */
import type { Address, Hex, LocalAccount, PublicClient } from "viem";
import { type CompletedTypedData, typedDataFromJson } from "../../chains/evm/json-typed-data";
import { cancelLimitMessage } from "../../limit-orders/messages";
import type {
  Erc2612Permit,
  LimitOrder,
  LimitOrderDraft,
  LimitOrderPlaceRequest,
  LimitOrderPrepareRequest,
} from "./api";
import { permit2Allowance, signPermit2Approval } from "./permit";
import { type RelayCallOptions, relayCall } from "./relay";
import { QuoteMismatchError } from "./sign";

export async function prepareLimitOrder(
  relayUrl: string,
  body: LimitOrderPrepareRequest,
  options?: RelayCallOptions,
): Promise<LimitOrderDraft> {
  const init = { method: "POST", body: JSON.stringify(body) };
  return (await relayCall<LimitOrderDraft>(relayUrl, "/v1/limit-orders/prepare", init, options)).body;
}

const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * The draft's typed data ready for viem, after checking it is the Permit2 transfer of what the taker
 * asked for: the sell token and amount (with the capped gas fee), the buy token, the recipient, the
 * draft's `minOut`, nonce and deadline. A taker signs what it asked for, or nothing.
 */
export function limitTypedData(asked: LimitOrderPrepareRequest, draft: LimitOrderDraft): CompletedTypedData {
  const typed = typedDataFromJson(draft.typedData as Parameters<typeof typedDataFromJson>[0]);
  const message = typed.message as {
    permitted?: { token?: unknown; amount?: unknown };
    nonce?: unknown;
    deadline?: unknown;
    witness?: Record<string, unknown>;
  };
  const w = message.witness ?? {};
  const checks: [string, boolean][] = [
    ["primaryType", typed.primaryType === "PermitWitnessTransferFrom"],
    ["chainId", asked.chainId === undefined || typed.domain.chainId === asked.chainId],
    ["permitted.token", same(message.permitted?.token, asked.sellToken)],
    ["permitted.amount", message.permitted?.amount === BigInt(draft.draft.permitAmount)],
    ["nonce", message.nonce === BigInt(draft.draft.nonce)],
    ["deadline", message.deadline === BigInt(draft.draft.deadline)],
    ["witness.taker", same(w.taker, asked.taker)],
    ["witness.recipient", same(w.recipient, asked.recipient ?? asked.taker)],
    ["witness.sellToken", same(w.sellToken, asked.sellToken)],
    ["witness.buyToken", same(w.buyToken, asked.buyToken)],
    ["witness.sellAmount", w.sellAmount === BigInt(asked.sellAmount)],
    ["witness.minOut", w.minOut === BigInt(draft.draft.minOut)],
    ["witness.maxGasFee", w.maxGasFee === BigInt(draft.draft.maxGasFee)],
  ];
  const bad = checks.find(([, ok]) => !ok);
  if (bad) throw new QuoteMismatchError(`the limit order draft's typedData: ${bad[0]} differs from what was asked`);
  return typed;
}

export function signLimitDraft(
  account: LocalAccount,
  asked: LimitOrderPrepareRequest,
  draft: LimitOrderDraft,
): Promise<Hex> {
  return account.signTypedData(limitTypedData(asked, draft));
}

export async function placeLimitOrder(
  relayUrl: string,
  body: LimitOrderPlaceRequest,
  options?: RelayCallOptions,
): Promise<LimitOrder> {
  const init = { method: "POST", body: JSON.stringify(body) };
  return (await relayCall<LimitOrder>(relayUrl, "/v1/limit-orders", init, options)).body;
}

export interface LimitOrderRequest extends Omit<LimitOrderPrepareRequest, "taker"> {
  relayUrl: string;
  /** Reads the Permit2 allowance and the token's permit nonce on the order's chain. */
  client: PublicClient;
  account: LocalAccount;
  /** After prepare, before signing, for a caller that shows progress. */
  onPrepared?: (draft: LimitOrderDraft) => void;
}

/**
 * One limit order up to its placement: prepare, check and sign the draft, and when Permit2 may not yet
 * pull the draft's `permitAmount`, an EIP-2612 permit for it valid until the order's deadline, so the
 * order needs no prior `approve`. Follow it with `followLimitOrder`.
 */
export async function limitOrder(
  request: LimitOrderRequest,
  options?: RelayCallOptions,
): Promise<{ draft: LimitOrderDraft; permit: Erc2612Permit | null; order: LimitOrder }> {
  const { relayUrl, client, account, onPrepared, ...terms } = request;
  const asked: LimitOrderPrepareRequest = { ...terms, taker: account.address };
  const draft = await prepareLimitOrder(relayUrl, asked, options);
  onPrepared?.(draft);
  const signature = await signLimitDraft(account, asked, draft);
  const token = asked.sellToken as Address;
  const permit2 = draft.permit2 as Address;
  const allowance = await permit2Allowance(client, { token, owner: account.address, permit2 });
  const permit =
    allowance < BigInt(draft.draft.permitAmount)
      ? await signPermit2Approval(client, { account, token, permit2, deadline: BigInt(draft.draft.deadline) })
      : null;
  const order = await placeLimitOrder(relayUrl, { draft, signature, ...(permit ? { erc2612: permit } : {}) }, options);
  return { draft, permit, order };
}

export async function getLimitOrder(relayUrl: string, id: string, options?: RelayCallOptions): Promise<LimitOrder> {
  return (await relayCall<LimitOrder>(relayUrl, `/v1/limit-orders/${encodeURIComponent(id)}`, {}, options)).body;
}

/** Cancels an open order with the taker's EIP-191 signature over its `cancelMessage`. */
export async function cancelLimitOrder(
  relayUrl: string,
  account: LocalAccount,
  order: LimitOrder,
  options?: RelayCallOptions,
): Promise<LimitOrder> {
  if (order.cancelMessage !== cancelLimitMessage(order.chainId, order.limitOrderId)) {
    throw new QuoteMismatchError(`order ${order.limitOrderId}: its cancelMessage is not the relay's cancel text`);
  }
  const signature = await account.signMessage({ message: order.cancelMessage });
  const init = { method: "POST", body: JSON.stringify({ signature }) };
  const path = `/v1/limit-orders/${encodeURIComponent(order.limitOrderId)}/cancel`;
  return (await relayCall<LimitOrder>(relayUrl, path, init, options)).body;
}

/** Polls the order until it is filled (or ends otherwise, or the time runs out); the last record read. */
export async function followLimitOrder(
  relayUrl: string,
  id: string,
  options: RelayCallOptions & {
    timeoutMs?: number;
    intervalMs?: number;
    onChange?: (o: LimitOrder) => void;
  } = {},
): Promise<LimitOrder> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last = "";
  for (;;) {
    const order = await getLimitOrder(relayUrl, id, options);
    const seen = `${order.status}|${order.attempts}|${order.quoteId}`;
    if (seen !== last) options.onChange?.(order);
    last = seen;
    if (order.status === "filled" || order.status === "cancelled" || order.status === "expired") return order;
    if (Date.now() > deadline) return order;
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 500));
  }
}
