import { createRoute } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { adapterFor } from "../chains";
import type { ChainAdapter } from "../chains/adapter";
import { type LimitOrderChains, limitOrdersFor } from "../chains/limit-orders";
import { ChainUnavailableError } from "../chains/settler";
import { primaryEvmChain } from "../config/record";
import type { RelayConfig } from "../config/schema";
import { findCorridor } from "../corridors";
import {
  cancelLimitOrder,
  countActiveLimitOrders,
  expireLimitOrders,
  insertLimitOrder,
  type LimitOrderRow,
  limitNonceTaken,
  listLimitOrders,
  readLimitOrder,
} from "../db/limit-orders";
import type { AppEnv } from "../env";
import { invalidRequest, notFound, RelayError, retryLater } from "../errors";
import { addressIssues } from "../http/address-issues";
import { behindAnswer } from "../http/behind-answer";
import { createRouter } from "../http/router";
import { isId, newId } from "../ids";
import { decodeCursor, encodeCursor } from "../limit-orders/cursor";
import { buildDraft, type DraftChain, firstDifference, inputsOfDraft } from "../limit-orders/draft";
import { deadlineAccepted, deadlineOf, expiresAtOf, expiryAccepted } from "../limit-orders/expiry";
import { cancelLimitMessage } from "../limit-orders/messages";
import { limitOrderRecord } from "../limit-orders/record";
import { log } from "../log";
import { errorResponses, jsonContent } from "../schemas/common";
import {
  LimitCancelRequest,
  LimitListQuery,
  LimitOrderDraft,
  LimitOrderPage,
  LimitOrderRecord,
  LimitPlaceRequest,
  LimitPrepareRequest,
} from "../schemas/limit-order";
import { IdParam } from "../schemas/quote";
import { announceLimitOrders } from "../streams/announce";
import { keeperStub } from "../stubs";

/**
 * Limit orders are off while the configuration's `limitOrders` is null (docs/configuration.md): every
 * `/v1/limit-orders` path then answers 404 `limit_orders_disabled`.
 */
export const limitOrdersDisabled = createMiddleware<AppEnv>(async (c, next) => {
  limitSettings(c.get("config"));
  await next();
});

function limitSettings(config: RelayConfig): NonNullable<RelayConfig["limitOrders"]> {
  if (config.limitOrders === null) {
    throw new RelayError(404, "limit_orders_disabled", "Limit orders are off on this relay.");
  }
  return config.limitOrders;
}

/** When a taker over `maxOpenPerTaker` may try again: orders close by filling, cancel or expiry, not soon. */
const TOO_MANY_OPEN_RETRY_SECONDS = 60;
/** When to try again after the chain did not answer a read. */
const CHAIN_RETRY_SECONDS = 5;
/** A page of `GET /v1/limit-orders` without `limit`. */
const DEFAULT_PAGE = 50;
/** Fresh nonces tried before giving up; a random 128-bit nonce is taken already practically never. */
const NONCE_TRIES = 3;

/** The configured chain `chainId` with its limit orders; `unknown` is thrown when none is configured. */
function limitChainOf(
  config: RelayConfig,
  chains: LimitOrderChains,
  chainId: number,
  unknown: () => RelayError,
): DraftChain {
  const chain = config.chains.find((ch) => ch.chainId === chainId);
  if (!chain) throw unknown();
  const orders = chains(chain);
  if (!orders) {
    throw new RelayError(400, "limit_orders_unsupported", `Chain ${chainId} has no limit orders; they are EVM-only.`);
  }
  return { adapter: adapterFor(chain), orders };
}

function refuseBelowMinimum(adapter: ChainAdapter, sellToken: string, sellAmount: bigint): void {
  const token = adapter.token(sellToken);
  if (token?.minimum && sellAmount < BigInt(token.minimum)) {
    throw new RelayError(400, "below_minimum", `The least ${token.symbol} sold is ${token.minimum}.`, {
      minimum: token.minimum,
    });
  }
}

async function refuseOverLimit(db: D1Database, taker: string, max: number, now: string): Promise<void> {
  const open = await countActiveLimitOrders(db, taker, now);
  if (open >= max) throw tooManyOpen(open, max);
}

const tooManyOpen = (open: number, max: number) =>
  retryLater(
    429,
    "too_many_open",
    `This taker has ${open} open limit orders, the most allowed is ${max}.`,
    TOO_MANY_OPEN_RETRY_SECONDS,
    { open, max },
  );

const limitBelowFees = () =>
  new RelayError(400, "limit_below_fees", "The limit does not cover the protocol fee and the most gas fee.");

const termsMismatch = (field: string, message: string) => new RelayError(400, "terms_mismatch", message, { field });

const nonceUsed = () =>
  new RelayError(409, "nonce_used", "The order's Permit2 nonce is already used: prepare a new draft.");

/** Runs chain reads; a chain that does not answer is 503 `chain_unavailable`. */
async function readingChain<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ChainUnavailableError) {
      throw retryLater(503, "chain_unavailable", "The chain did not answer; try again shortly.", CHAIN_RETRY_SECONDS);
    }
    throw e;
  }
}

/** An order as read: an open order past its expiry is recorded as expired first. */
async function readFresh(db: D1Database, id: string): Promise<LimitOrderRow | null> {
  const row = await readLimitOrder(db, id);
  const now = new Date().toISOString();
  if (row?.status === "open" && row.expiresAt <= now) {
    await expireLimitOrders(db, now, id);
    return readLimitOrder(db, id);
  }
  return row;
}

/** The limit-order routes, reaching chains through `chains` (a fake in the integration tests). */
export function limitOrderRoutes(chains: LimitOrderChains = limitOrdersFor) {
  return createRouter()
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders/prepare",
        tags: ["limit orders"],
        summary: "Derive a limit order's terms and the typed data the taker signs; stores nothing",
        request: { body: { required: true, content: { "application/json": { schema: LimitPrepareRequest } } } },
        responses: {
          200: jsonContent(LimitOrderDraft, "The draft (record 2.7)"),
          ...errorResponses(400, 404, 429),
        },
      }),
      async (c) => {
        const body = c.req.valid("json");
        const config = c.get("config");
        const settings = limitSettings(config);
        const chainId = body.chainId ?? primaryEvmChain(config).chainId;
        const chain = limitChainOf(
          config,
          chains,
          chainId,
          () => new RelayError(400, "unsupported_pair", `The relay does not serve chain ${chainId}.`),
        );
        const { adapter } = chain;
        const issues = addressIssues(adapter, {
          sellToken: body.sellToken,
          buyToken: body.buyToken,
          taker: body.taker,
          recipient: body.recipient,
        });
        if (issues.length) throw invalidRequest(issues, "The request failed validation.");
        if (!findCorridor(config, chainId, body.sellToken, body.buyToken)) {
          throw new RelayError(
            400,
            "unsupported_pair",
            `The relay does not trade ${body.sellToken} for ${body.buyToken}.`,
          );
        }
        const sellAmount = BigInt(body.sellAmount);
        refuseBelowMinimum(adapter, body.sellToken, sellAmount);
        if (!expiryAccepted(body.expiresInSeconds, settings)) {
          throw new RelayError(
            400,
            "bad_expiry",
            `expiresInSeconds must be from ${settings.minExpirySeconds} to ${settings.maxExpirySeconds}.`,
          );
        }
        const now = Date.now();
        const inputs = {
          taker: body.taker,
          recipient: body.recipient ?? body.taker,
          // The corridor exists, so both are configured tokens; the draft names them as configured.
          sellToken: adapter.token(body.sellToken)?.address ?? body.sellToken,
          buyToken: adapter.token(body.buyToken)?.address ?? body.buyToken,
          sellAmount,
          limitAmount: BigInt(body.limitAmount),
          deadline: deadlineOf(Math.floor(now / 1000), body.expiresInSeconds),
        };
        if (!buildDraft(chain, { ...inputs, nonce: 0n })) throw limitBelowFees();
        const taker = adapter.normalise(body.taker);
        await refuseOverLimit(c.env.DB, taker, settings.maxOpenPerTaker, new Date(now).toISOString());
        for (let i = 0; i < NONCE_TRIES; i++) {
          const nonce = chain.orders.newNonce();
          if (await limitNonceTaken(c.env.DB, chainId, taker, nonce.toString())) continue;
          const draft = buildDraft(chain, { ...inputs, nonce });
          if (draft) return c.json(draft.record, 200);
        }
        throw new Error("no free limit-order nonce");
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders",
        tags: ["limit orders"],
        summary: "Place a signed limit order: every term is derived again and checked, with the taker's funds",
        request: { body: { required: true, content: { "application/json": { schema: LimitPlaceRequest } } } },
        responses: {
          201: jsonContent(LimitOrderRecord, "The open order (record 2.8)"),
          ...errorResponses(400, 404, 409, 429, 503),
        },
      }),
      async (c) => {
        const { draft, signature, erc2612 } = c.req.valid("json");
        const config = c.get("config");
        const settings = limitSettings(config);
        const chain = limitChainOf(
          config,
          chains,
          draft.chainId,
          () => new RelayError(409, "wrong_chain", `The relay does not serve chain ${draft.chainId}.`),
        );
        const { adapter, orders } = chain;
        const signedChainId = orders.signedChainId(draft.typedData);
        if (signedChainId !== null && signedChainId !== draft.chainId) {
          throw new RelayError(
            409,
            "wrong_chain",
            `The typed data is for chain ${signedChainId}, the draft for chain ${draft.chainId}.`,
          );
        }
        const inputs = inputsOfDraft(chain, draft);
        if (!inputs || !findCorridor(config, draft.chainId, inputs.sellToken, inputs.buyToken)) {
          throw termsMismatch("typedData.message", "The typed data is not a limit order the relay trades.");
        }
        refuseBelowMinimum(adapter, inputs.sellToken, inputs.sellAmount);
        const now = Date.now();
        if (!deadlineAccepted(inputs.deadline, Math.floor(now / 1000), settings)) {
          throw new RelayError(
            400,
            "bad_expiry",
            `The order's deadline must be from ${settings.minExpirySeconds} to ${settings.maxExpirySeconds} seconds ` +
              "from when it was prepared; prepare a new draft.",
          );
        }
        const derived = buildDraft(chain, inputs);
        if (!derived) throw limitBelowFees();
        const field = firstDifference(derived.record, draft);
        if (field) {
          throw termsMismatch(field, `The draft's ${field} is not what the relay derives from its terms now.`);
        }
        if (!(await orders.verifyTaker(derived.terms, signature))) {
          throw new RelayError(400, "bad_signature", "The signature is not the taker's over the draft's typedData.");
        }
        const taker = adapter.normalise(inputs.taker);
        const nowIso = new Date(now).toISOString();
        await refuseOverLimit(c.env.DB, taker, settings.maxOpenPerTaker, nowIso);
        const nonce = inputs.nonce.toString();
        if (await limitNonceTaken(c.env.DB, draft.chainId, taker, nonce)) throw nonceUsed();
        await readingChain(async () => {
          if (await orders.nonceSpent(inputs.taker, inputs.nonce)) throw nonceUsed();
          const ready = await orders.readiness(derived.terms, erc2612 ?? null);
          if (!ready.ready) {
            throw new RelayError(400, "taker_not_ready", ready.detail, { reason: ready.reason, detail: ready.detail });
          }
        });
        const corridor = findCorridor(config, draft.chainId, inputs.sellToken, inputs.buyToken);
        const { terms, amounts } = derived;
        const row: LimitOrderRow = {
          limitOrderId: newId("lo"),
          chainId: draft.chainId,
          corridor: corridor?.key ?? "",
          status: "open",
          taker,
          recipient: terms.recipient,
          sellToken: inputs.sellToken,
          buyToken: inputs.buyToken,
          sellAmount: inputs.sellAmount.toString(),
          limitAmount: inputs.limitAmount.toString(),
          minOut: amounts.minOut.toString(),
          feeToken: derived.feeToken,
          feeBps: derived.feeBps,
          feeAtLimit: amounts.feeAtLimit.toString(),
          gasFeeToken: terms.gasFeeToken,
          gasFeeNow: amounts.gasFeeNow.toString(),
          maxGasFee: amounts.maxGasFee.toString(),
          permitToken: inputs.sellToken,
          permitAmount: amounts.permitAmount.toString(),
          nonce,
          deadline: inputs.deadline.toString(),
          typedData: derived.record.typedData,
          signature,
          erc2612: erc2612 ?? null,
          revoke: orders.revoke(inputs.nonce),
          expiresAt: expiresAtOf(inputs.deadline),
          quoteId: null,
          attempts: 0,
          lastError: null,
          lastCheckedAt: null,
          bestReceived: null,
          createdAt: nowIso,
          updatedAt: nowIso,
        };
        const outcome = await insertLimitOrder(c.env.DB, row, settings.maxOpenPerTaker, nowIso);
        if (outcome === "nonce_used") throw nonceUsed();
        if (outcome === "too_many_open") throw tooManyOpen(settings.maxOpenPerTaker, settings.maxOpenPerTaker);
        // The keeper's limit job runs from its alarm: an object that has not woken yet is woken now.
        await keeperStub(c.env)
          .watchLimitOrders()
          .catch((e: unknown) => log.error("keeper_wake_failed", { component: "limit_orders", error: String(e) }));
        return c.json(limitOrderRecord(row), 201);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/v1/limit-orders",
        tags: ["limit orders"],
        summary: "A taker's limit orders on a chain, newest first, a page at a time",
        request: { query: LimitListQuery },
        responses: { 200: jsonContent(LimitOrderPage, "A page of orders"), ...errorResponses(400, 404) },
      }),
      async (c) => {
        const query = c.req.valid("query");
        const config = c.get("config");
        limitSettings(config);
        const chainId = query.chainId ?? primaryEvmChain(config).chainId;
        const { adapter } = limitChainOf(config, chains, chainId, () =>
          invalidRequest([{ path: "chainId", message: `the relay does not serve chain ${chainId}` }]),
        );
        const issues = addressIssues(adapter, { taker: query.taker });
        if (issues.length) throw invalidRequest(issues, "The request failed validation.");
        const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
        if (query.cursor !== undefined && !after) {
          throw invalidRequest([{ path: "cursor", message: "is not a cursor this relay gave out" }]);
        }
        const limit = query.limit ?? DEFAULT_PAGE;
        await expireLimitOrders(c.env.DB, new Date().toISOString());
        const rows = await listLimitOrders(c.env.DB, {
          taker: adapter.normalise(query.taker),
          chainId,
          status: query.status ?? null,
          limit: limit + 1,
          after,
        });
        const page = rows.slice(0, limit);
        const last = page.at(-1);
        const nextCursor = rows.length > limit && last ? encodeCursor(last) : null;
        return c.json({ limitOrders: page.map(limitOrderRecord), nextCursor }, 200);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/v1/limit-orders/{id}",
        tags: ["limit orders"],
        summary: "One limit order (record 2.8)",
        request: { params: IdParam },
        responses: { 200: jsonContent(LimitOrderRecord, "The order"), ...errorResponses(404) },
      }),
      async (c) => {
        const { id } = c.req.valid("param");
        const row = isId("lo", id) ? await readFresh(c.env.DB, id) : null;
        if (!row) throw notFound(`No limit order has the id ${JSON.stringify(id)}.`);
        return c.json(limitOrderRecord(row), 200);
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/v1/limit-orders/{id}/cancel",
        tags: ["limit orders"],
        summary: "Cancel an open limit order with the taker's signature over its cancelMessage",
        request: {
          params: IdParam,
          body: { required: true, content: { "application/json": { schema: LimitCancelRequest } } },
        },
        responses: { 200: jsonContent(LimitOrderRecord, "The cancelled order"), ...errorResponses(400, 404, 409) },
      }),
      async (c) => {
        const { id } = c.req.valid("param");
        const { signature } = c.req.valid("json");
        const row = isId("lo", id) ? await readLimitOrder(c.env.DB, id) : null;
        if (!row) throw notFound(`No limit order has the id ${JSON.stringify(id)}.`);
        const chain = c.get("config").chains.find((ch) => ch.chainId === row.chainId);
        const signed =
          chain !== undefined &&
          (await adapterFor(chain).verifyMessage(row.taker, cancelLimitMessage(row.chainId, id), signature));
        if (!signed) {
          throw new RelayError(400, "bad_signature", "The signature is not the taker's over the cancel message.");
        }
        if (!(await cancelLimitOrder(c.env.DB, id, new Date().toISOString()))) {
          const status = (await readFresh(c.env.DB, id))?.status ?? row.status;
          if (status === "filling") {
            throw new RelayError(
              409,
              "order_filling",
              "A fill of this order is on its way; it cannot be cancelled now.",
              {
                status,
              },
            );
          }
          throw new RelayError(409, "order_not_open", `The order is ${status}.`, { status });
        }
        await behindAnswer(c, announceLimitOrders(c.env, [{ limitOrderId: id, corridor: row.corridor }]));
        return c.json(limitOrderRecord((await readLimitOrder(c.env.DB, id)) as LimitOrderRow), 200);
      },
    );
}
