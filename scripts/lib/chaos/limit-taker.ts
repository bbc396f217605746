/**
 * One limit order placed while the relay is being crashed, and followed to its fill (docs/limit-orders.md):
 * the keeper's 5 s job must auction and fill it across the restarts. Placing is not keyed, so a placement
 * whose answer was lost is found again by its Permit2 nonce among the taker's orders (the relay refuses a
 * second order with the same nonce, 409 `nonce_used`).
 */
import type { Address, LocalAccount, PublicClient } from "viem";
import type {
  LimitOrder,
  LimitOrderDraft,
  LimitOrderPage,
  LimitOrderPrepareRequest,
} from "../../../src/clients/taker/api";
import { placeLimitOrder, prepareLimitOrder, signLimitDraft } from "../../../src/clients/taker/limit";
import { permit2Allowance, signPermit2Approval } from "../../../src/clients/taker/permit";
import { relayCall } from "../../../src/clients/taker/relay";
import { carefully } from "./careful-client";
import type { LimitRecord } from "./ledger";
import type { TakerRun } from "./takers";

/** How often the order is read while it rests: its auctions come every 5 s. */
const POLL_MS = 1_000;
const ENDED = new Set(["filled", "cancelled", "expired"]);

export interface LimitOrderPlan {
  account: LocalAccount;
  client: PublicClient;
  /** Sell, buy and the least the order takes (`limitAmount`), at or under the market so it fills. */
  terms: Omit<LimitOrderPrepareRequest, "taker" | "expiresInSeconds">;
  /** When to place it (ms since the epoch). */
  at: number;
  /** Stop following it after this (ms since the epoch). */
  followUntil: number;
}

/** Places the order at `plan.at`, then follows it until it ends or `plan.followUntil`; its record is in `run`. */
export async function limitOrderMidRun(run: TakerRun, plan: LimitOrderPlan): Promise<void> {
  const record: LimitRecord = { taker: plan.account.address, limitOrderId: null, status: "not placed", quoteId: null };
  run.ledger.limitOrders.push(record);
  await new Promise((r) => setTimeout(r, Math.max(0, plan.at - Date.now())));
  const options = { deadline: plan.followUntil, random: run.random };
  const asked: LimitOrderPrepareRequest = { ...plan.terms, taker: plan.account.address, expiresInSeconds: 600 };
  const prepared = await carefully(
    async (signal) => ({ status: 200, value: await prepareLimitOrder(run.relayUrl, asked, { signal }) }),
    options,
  );
  if (!prepared.value) return;
  const draft = prepared.value;
  const body = await signed(plan, asked, draft);
  const placed = await carefully(
    async (signal) => ({ status: 201, value: await placeLimitOrder(run.relayUrl, body, { signal }) }),
    options,
  );
  // Refused or unanswered: an attempt whose answer was lost may have placed it all the same.
  const order = placed.value ?? (await findByNonce(run.relayUrl, plan.account.address, draft));
  if (!order) return;
  record.limitOrderId = order.limitOrderId;
  record.status = order.status;
  while (!ENDED.has(record.status) && Date.now() < plan.followUntil) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const path = `/v1/limit-orders/${encodeURIComponent(order.limitOrderId)}`;
    const read = await carefully(async (signal) => {
      const { status, body: value } = await relayCall<LimitOrder>(run.relayUrl, path, {}, { signal });
      return { status, value };
    }, options);
    if (!read.value) continue;
    record.status = read.value.status;
    record.quoteId = read.value.quoteId;
  }
}

/** The draft signed, with an EIP-2612 approval of Permit2 when it may not pull the order's amount yet. */
async function signed(plan: LimitOrderPlan, asked: LimitOrderPrepareRequest, draft: LimitOrderDraft) {
  const signature = await signLimitDraft(plan.account, asked, draft);
  const token = asked.sellToken as Address;
  const permit2 = draft.permit2 as Address;
  const owner = plan.account.address;
  const allowance = await permit2Allowance(plan.client, { token, owner, permit2 });
  if (allowance >= BigInt(draft.draft.permitAmount)) return { draft, signature };
  const deadline = BigInt(draft.draft.deadline);
  const erc2612 = await signPermit2Approval(plan.client, { account: plan.account, token, permit2, deadline });
  return { draft, signature, erc2612 };
}

/** The taker's order with the draft's nonce, when a placement's answer never came back. */
async function findByNonce(relayUrl: string, taker: string, draft: LimitOrderDraft): Promise<LimitOrder | null> {
  const path = `/v1/limit-orders?taker=${taker}&chainId=${draft.chainId}`;
  const { body } = await relayCall<LimitOrderPage>(relayUrl, path, {});
  return body.limitOrders.find((o) => o.permit.nonce === draft.draft.nonce) ?? null;
}
