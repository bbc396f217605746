import { isTakerReason } from "../chains/evm/revert-reasons";
import { type ChainSettler, ChainUnavailableError, type FillRequest, type PreparedFill } from "../chains/settler";
import { findCorridor } from "../corridors";
import { expireIfDue } from "../db/quote-status";
import { type QuoteRow, readQuoteRow } from "../db/quotes";
import { executionForKey, scopedIdempotencyKey } from "../db/settlement";
import { type AcceptedTerms, writeRequote } from "../db/settlement-steps";
import { refuse } from "../errors";
import { newId } from "../ids";
import { duplicateOf, type SubmitOutcome, type SubmitRequest } from "./contract";
import { notLeader, quoteExpired } from "./outcomes";
import type { Submission } from "./pending";
import { iso, type KeeperPort, log } from "./port";
import { strikeWinner } from "./strikes";

/** A submission that passed every check and its simulation: ready to be signed and broadcast. */
export interface Prepared {
  kind: "prepared";
  settler: ChainSettler;
  fill: PreparedFill;
  submission: Submission;
}

/**
 * Every check of a submission, in the order of docs/settlement.md, then its simulation. A duplicate, a
 * refusal or a requote is answered (and a requote recorded) here; a submission that passes is returned
 * ready for the wallet. `recovering` says whether the chain's wallet waits on an unconfirmed broadcast.
 */
export async function admit(
  port: KeeperPort,
  req: SubmitRequest,
  recovering: (chainId: number) => boolean,
): Promise<Prepared | SubmitOutcome> {
  const { db, store } = port;
  const now = iso(port.now());
  const quote = await readQuoteRow(db, req.quoteId);
  if (!quote) return refuse(404, "quote_not_found", `No quote has the id ${JSON.stringify(req.quoteId)}.`);
  const idempotencyKey = req.idempotencyKey ? scopedIdempotencyKey(quote.taker, req.idempotencyKey) : null;
  if (idempotencyKey) {
    const first = await executionForKey(db, idempotencyKey, now);
    if (first) return duplicateOf(first);
  }
  const chain = port.config().chains.find((c) => c.chainId === quote.chainId);
  if (!chain) return refuse(409, "wrong_chain", `The relay no longer serves chain ${quote.chainId}.`);
  const settler = port.settler(chain);
  if (quote.status === "expired") return quoteExpired();
  if (quote.status !== "quoted" && quote.status !== "signed") {
    return refuse(409, "quote_not_open", `The quote is ${quote.status}.`, { status: quote.status });
  }
  // Open in D1 but followed by the keeper: broadcast, and D1 not written yet (the indexer will).
  if (store.forQuote(quote.quoteId)) {
    return refuse(409, "quote_not_open", "A fill of this quote is already on its way.", { status: "submitted" });
  }
  if (quote.expiresAt <= now) {
    await expireIfDue(db, quote.quoteId, now);
    return quoteExpired();
  }
  if (settler === "no_key") return notLeader("keeper_not_configured");
  if (recovering(quote.chainId)) return notLeader("recovering");
  const request: FillRequest = {
    quoteId: quote.quoteId,
    taker: quote.taker,
    sellToken: quote.sellToken,
    buyToken: quote.buyToken,
    gasFeeToken: quote.gasFee.token,
    takerPays: quote.takerPays,
    signing: quote.signing,
    signature: req.signature,
    permit: req.permit,
  };
  const check = await settler.verifyTaker(request);
  if (!check.ok) return refuse(400, check.code, takerRefusals[check.code], { reason: check.reason });
  const terms: AcceptedTerms = {
    executionId: newId("x"),
    quoteId: quote.quoteId,
    resolver: quote.resolver?.address ?? null,
    proceeds: quote.proceeds,
    takerPays: quote.takerPays,
    idempotencyKey,
    at: now,
  };
  try {
    const readiness = await settler.readiness(request, Math.floor(port.now() / 1000));
    if (!readiness.ready) {
      return refuse(400, "taker_not_ready", "The taker's side cannot be pulled yet.", {
        reason: readiness.reason,
        detail: readiness.detail,
      });
    }
    const preparation = await settler.prepare(request);
    switch (preparation.kind) {
      case "bad_signature":
        return refuse(400, "bad_signature", "The settlement contracts refuse the taker's signature.");
      case "keeper_refused":
        return notLeader(preparation.reason);
      case "requote":
        return requote(port, quote, terms, preparation.reason);
    }
    const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
    const { fill } = preparation;
    return {
      kind: "prepared",
      settler,
      fill,
      submission: {
        ...terms,
        request,
        call: fill.call,
        gasFeeToken: quote.gasFee.token,
        corridorKey: corridor?.key ?? null,
      },
    };
  } catch (e) {
    if (!(e instanceof ChainUnavailableError)) throw e;
    log("rpc_unavailable", { chainId: quote.chainId, error: e.message });
    return notLeader("rpc_unavailable");
  }
}

const takerRefusals = {
  bad_signature: "The signature is not the taker's over the quote's typedData.",
  bad_transaction: "The transaction is not the quote's transaction signed by the taker, changed in nothing else.",
} as const;

/**
 * A simulation that reverted: recorded as a `requote` execution. A reason the taker can fix leaves the
 * quote open; any other fails it, and the winning resolver hears so.
 */
async function requote(
  port: KeeperPort,
  quote: QuoteRow,
  terms: AcceptedTerms,
  reason: string,
): Promise<SubmitOutcome> {
  const step = isTakerReason(reason) ? "takerRequote" : "requote";
  await writeRequote(port.db, { ...terms, at: iso(port.now()) }, step, reason);
  const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
  if (step === "requote" && quote.resolver) {
    const resolver = quote.resolver.address;
    if (corridor) port.notify(corridor.key, resolver, { quoteId: quote.quoteId, status: "failed", txHash: null });
    await strikeWinner(
      port,
      { corridorKey: corridor?.key ?? null, resolver, executionId: terms.executionId },
      `requote ${reason}`,
    );
  }
  return { kind: "requote", quoteId: quote.quoteId, executionId: terms.executionId, reason };
}
