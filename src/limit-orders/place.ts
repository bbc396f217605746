import { findCorridor } from "../chains";
import { insertLimitOrder, limitNonceTaken } from "../db";
import { RelayError } from "../errors";
import { newId } from "../ids";
import { refuseBelowMinimum } from "../quotes";
import type { LimitOrderPlaceRequest, LimitOrderRow } from "../schemas";
import { type LimitOrderContext, limitChainOf, limitSettings } from "./context";
import { belowFees, buildDraft, firstDifference, inputsOfDraft } from "./draft";
import { deadlineAccepted, expiresAtOf } from "./expiry";
import { limitBelowFees, nonceUsed, readingChain, refuseOverLimit, termsMismatch, tooManyOpen } from "./refusals";

/** A draft whose gas fee is under today's divided by this is refused: prepared too long before a rise. */
const STALE_GAS_FEE_FACTOR = 2n;

/**
 * `POST /v1/limit-orders` (docs/limit-orders.md, "Placing"): every term of the signed draft derived
 * again and compared, the signature, the taker's limit and nonce, then its funds on chain; the order
 * stored open. Returns the stored order.
 */
export async function placeLimitOrder(ctx: LimitOrderContext, body: LimitOrderPlaceRequest): Promise<LimitOrderRow> {
  const { draft, signature, erc2612 } = body;
  const { config, db } = ctx;
  const settings = limitSettings(config);
  const chain = limitChainOf(
    ctx,
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
  const corridor = inputs && findCorridor(config, draft.chainId, inputs.sellToken, inputs.buyToken);
  if (!inputs || !corridor) {
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
  if (!derived) throw limitBelowFees(belowFees(chain, inputs));
  const field = firstDifference(derived.record, draft);
  if (field) throw termsMismatch(field, `The draft's ${field} is not what the relay derives from its terms now.`);
  // The signed gas fee must still be today's, within a factor of two (docs/limit-orders.md, "Amounts").
  const { sellToken, buyToken, recipient } = inputs;
  const today = await ctx.gasFeeNow(corridor.key, { kind: "limit", sellToken, buyToken, recipient });
  if (inputs.gasFeeNow * STALE_GAS_FEE_FACTOR < today) {
    throw termsMismatch(
      "gasFeeNow",
      `The draft's gas fee (${inputs.gasFeeNow}) is under half of today's (${today}); prepare a new draft.`,
    );
  }
  const fault = await readingChain(() => orders.takerSignatureFault(derived.terms, signature));
  if (fault) throw new RelayError(400, "bad_signature", fault, { field: "signature" });
  const taker = adapter.normalise(inputs.taker);
  const nowIso = new Date(now).toISOString();
  await refuseOverLimit(db, taker, settings.maxOpenPerTaker, nowIso);
  const nonce = inputs.nonce.toString();
  if (await limitNonceTaken(db, draft.chainId, taker, nonce)) throw nonceUsed();
  await readingChain(async () => {
    if (await orders.nonceSpent(inputs.taker, inputs.nonce)) throw nonceUsed();
    const ready = await orders.readiness(derived.terms, erc2612 ?? null);
    if (!ready.ready) {
      throw new RelayError(400, "taker_not_ready", ready.detail, { reason: ready.reason, detail: ready.detail });
    }
  });
  const { terms, amounts } = derived;
  const row: LimitOrderRow = {
    limitOrderId: newId("lo"),
    chainId: draft.chainId,
    corridor: corridor.key,
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
  const outcome = await insertLimitOrder(db, row, settings.maxOpenPerTaker, nowIso);
  if (outcome === "nonce_used") throw nonceUsed();
  if (outcome === "too_many_open") throw tooManyOpen(settings.maxOpenPerTaker, settings.maxOpenPerTaker);
  return row;
}
