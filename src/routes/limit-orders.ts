import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { LimitOrderChains } from "../chains";
import { limitOrdersFor } from "../chains";
import type { AppEnv } from "../env";
import { RelayError } from "../errors";
import { API_KEY_SECURITY, behindAnswer, createRouter, type RequestClient, requestClient } from "../http";
import {
  cancelSignedLimitOrder,
  type LimitOrderContext,
  limitOrderById,
  limitOrderPage,
  limitOrderRecord,
  limitSettings,
  placeLimitOrder,
  prepareLimitOrder,
} from "../limit-orders";
import { log } from "../log";
import { CORRIDOR_UNREACHABLE, callObject, corridorStub, keeperStub } from "../objects";
import {
  CancelLimitOrderRequest,
  errorResponses,
  IdParam,
  jsonContent,
  LimitListQuery,
  LimitOrder,
  LimitOrderDraft,
  LimitOrderPage,
  LimitOrderPlaceRequest,
  LimitOrderPrepareRequest,
} from "../schemas";
import { announceLimitOrders } from "../streams";

/**
 * Limit orders are off while the configuration's `limitOrders` is null (docs/configuration.md): every
 * `/v1/limit-orders` path then answers 404 `limit_orders_disabled`.
 */
export const limitOrdersDisabled = createMiddleware<AppEnv>(async (c, next) => {
  limitSettings(c.get("config"));
  await next();
});

/**
 * A placement reads the chain, so it is counted where every isolate sees the count: the keeper leader,
 * which it wakes anyway for the limit job that runs from its alarm (docs/security.md, "Counts a
 * bypass defeats"). A keeper that cannot be asked does not stop a placement; its job wakes on its next alarm.
 */
async function admitLimitOrder(c: Context<AppEnv>): Promise<void> {
  const who = await requestClient(c);
  const refused = await keeperStub(c.env)
    .admitLimitOrder(who)
    .catch((e: unknown) => {
      log.error("keeper_wake_failed", { component: "limit_orders", error: String(e) });
      return null;
    });
  if (refused) throw RelayError.from(refused);
}

/** The limit-order routes (docs/limit-orders.md), reaching chains through `chains` (a fake in the integration tests). */
export function limitOrderRoutes(chains: LimitOrderChains = limitOrdersFor) {
  // A prepare counts against its client where it already goes, the corridor that prices it (docs/security.md).
  const context = (c: Context<AppEnv>, ask: RequestClient | null = null): LimitOrderContext => ({
    db: c.env.DB,
    config: c.get("config"),
    chains,
    gasFeeNow: async (corridorKey, fill) => {
      const answer = await callObject(
        async () => await corridorStub(c.env, corridorKey).gasFeeNow(fill, ask),
        CORRIDOR_UNREACHABLE,
      );
      if ("kind" in answer) throw RelayError.from(answer);
      return BigInt(answer.amount);
    },
  });
  return createRouter()
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders/prepare",
        operationId: "prepareLimitOrder",
        security: API_KEY_SECURITY,
        tags: ["limit orders"],
        summary: "Derive a limit order's terms and the typed data the taker signs; stores nothing",
        request: { body: { required: true, content: { "application/json": { schema: LimitOrderPrepareRequest } } } },
        responses: {
          200: jsonContent(LimitOrderDraft, "The draft (record 2.7)"),
          ...errorResponses(400, 401, 404, 429, 503),
        },
      }),
      async (c) => c.json(await prepareLimitOrder(context(c, await requestClient(c)), c.req.valid("json")), 200),
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders",
        operationId: "placeLimitOrder",
        tags: ["limit orders"],
        summary: "Place a signed limit order: every term is derived again and checked, with the taker's funds",
        request: { body: { required: true, content: { "application/json": { schema: LimitOrderPlaceRequest } } } },
        responses: {
          201: jsonContent(LimitOrder, "The open order (record 2.8)"),
          ...errorResponses(400, 404, 409, 429, 503),
        },
      }),
      async (c) => {
        await admitLimitOrder(c);
        const order = await placeLimitOrder(context(c), c.req.valid("json"));
        return c.json(limitOrderRecord(order), 201);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/v1/limit-orders",
        operationId: "listLimitOrders",
        tags: ["limit orders"],
        summary: "A taker's limit orders on a chain, newest first, a page at a time",
        request: { query: LimitListQuery },
        responses: { 200: jsonContent(LimitOrderPage, "A page of orders"), ...errorResponses(400, 404) },
      }),
      async (c) => c.json(await limitOrderPage(context(c), c.req.valid("query")), 200),
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/v1/limit-orders/{id}",
        operationId: "getLimitOrder",
        tags: ["limit orders"],
        summary: "One limit order (record 2.8)",
        request: { params: IdParam },
        responses: { 200: jsonContent(LimitOrder, "The order"), ...errorResponses(404) },
      }),
      async (c) => c.json(await limitOrderById(c.env.DB, c.req.valid("param").id), 200),
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders/{id}/cancel",
        operationId: "cancelLimitOrder",
        tags: ["limit orders"],
        summary: "Cancel an open limit order with the taker's signature over its cancelMessage",
        request: {
          params: IdParam,
          body: { required: true, content: { "application/json": { schema: CancelLimitOrderRequest } } },
        },
        responses: { 200: jsonContent(LimitOrder, "The cancelled order"), ...errorResponses(400, 404, 409) },
      }),
      async (c) => {
        const { id } = c.req.valid("param");
        const { order, moved } = await cancelSignedLimitOrder(context(c), id, c.req.valid("json").signature);
        await behindAnswer(c, announceLimitOrders(c.env, [moved]));
        return c.json(order, 200);
      },
    );
}
