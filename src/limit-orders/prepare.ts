import { primaryEvmChain } from "../config";
import { limitNonceTaken } from "../db";
import { RelayError, retryLater } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../objects";
import { checkSwapTerms } from "../quotes";
import type { LimitOrderDraft, LimitOrderPrepareRequest } from "../schemas";
import { type LimitOrderContext, limitChainOf, limitSettings } from "./context";
import { belowFees, buildDraft } from "./draft";
import { deadlineOf, expiryAccepted } from "./expiry";
import { limitBelowFees, refuseOverLimit } from "./refusals";

/** Fresh nonces tried before giving up; a random 128-bit nonce is taken already practically never. */
const NONCE_TRIES = 3;

/**
 * `POST /v1/limit-orders/prepare` (docs/limit-orders.md, "Prepare"): the draft of the taker's terms,
 * with a Permit2 nonce the taker has not used; stores nothing.
 */
export async function prepareLimitOrder(
  ctx: LimitOrderContext,
  body: LimitOrderPrepareRequest,
): Promise<LimitOrderDraft> {
  const { config, db } = ctx;
  const settings = limitSettings(config);
  const chainId = body.chainId ?? primaryEvmChain(config).chainId;
  const chain = limitChainOf(
    ctx,
    chainId,
    () => new RelayError(400, "unsupported_pair", `The relay does not serve chain ${chainId}.`),
  );
  const { adapter } = chain;
  const corridor = checkSwapTerms(config, chainId, adapter, body);
  const sellAmount = BigInt(body.sellAmount);
  if (!expiryAccepted(body.expiresInSeconds, settings)) {
    throw new RelayError(
      400,
      "bad_expiry",
      `expiresInSeconds must be from ${settings.minExpirySeconds} to ${settings.maxExpirySeconds}.`,
    );
  }
  const now = Date.now();
  // The corridor exists, so both are configured tokens; the draft names them as configured.
  const sellToken = adapter.token(body.sellToken)?.address ?? body.sellToken;
  const buyToken = adapter.token(body.buyToken)?.address ?? body.buyToken;
  const recipient = adapter.canonical(body.recipient ?? body.taker);
  const inputs = {
    taker: adapter.canonical(body.taker),
    recipient,
    sellToken,
    buyToken,
    sellAmount,
    limitAmount: BigInt(body.limitAmount),
    deadline: deadlineOf(Math.floor(now / 1000), body.expiresInSeconds),
    gasFeeNow: await ctx.gasFeeNow(corridor.key, { kind: "limit", sellToken, buyToken, recipient }),
  };
  if (!buildDraft(chain, { ...inputs, nonce: 0n })) throw limitBelowFees(belowFees(chain, inputs));
  const taker = adapter.normalise(body.taker);
  await refuseOverLimit(db, taker, settings.maxOpenPerTaker, new Date(now).toISOString());
  for (let i = 0; i < NONCE_TRIES; i++) {
    const nonce = chain.orders.newNonce();
    if (await limitNonceTaken(db, chainId, taker, nonce.toString())) continue;
    const draft = buildDraft(chain, { ...inputs, nonce });
    if (draft) return draft.record;
  }
  // Practically never: three random 128-bit nonces all taken. Asking again draws new ones.
  throw retryLater(
    503,
    "not_leader",
    "No free nonce was found for the order; prepare again.",
    NOT_LEADER_RETRY_SECONDS,
    {
      reason: "nonce_search_exhausted",
    },
  );
}
