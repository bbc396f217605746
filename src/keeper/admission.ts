import { type ChainSettler, ChainUnavailableError, type FillRequest, findCorridor, type PreparedFill } from "../chains";
import { type QuoteRow, readSubmission, scopedIdempotencyKey } from "../db";
import { answerOf, firstRefusal } from "./checks";
import { iso } from "./iso";
import { keeperLog } from "./keeper-log";
import { notLeader, quoteNotFound } from "./outcomes";
import type { Submission } from "./pending";
import type { KeeperPort } from "./port";
import { chainChecks, type Found, keyChecks, onChain } from "./quote-checks";
import type { RoutedSubmission, SubmitOutcome, SubmitTimings } from "./rpc";
import { timed } from "./timings";
import { type TakerGate, Trial, termsOf, trialChecks } from "./trial";
import type { WalletSlot } from "./wallet-pool";

export type { TakerGate } from "./trial";

/**
 * A submission that passed every check and its simulation, its quote claimed: ready to be signed and
 * broadcast by the wallet it was simulated from (`wallet`, given to it until `wallet.release()`).
 */
export interface Prepared {
  kind: "prepared";
  settler: ChainSettler;
  wallet: WalletSlot;
  fill: PreparedFill;
  submission: Submission;
  timings: SubmitTimings;
}

/**
 * Gives a submission one of the chain's wallets, skipping those waiting on an unconfirmed broadcast;
 * null when every wallet is (`recovering`).
 */
export type PickWallet = (settlers: readonly ChainSettler[]) => WalletSlot | null;

const NO_GATE: TakerGate = { over: () => null, count: () => null };

/**
 * Every check of a submission, in the order of docs/settlement.md ("Admission"): its key and quote
 * (`keyChecks`), its chain (`chainChecks`), then its trial from the wallet `pick` gives it (`trialChecks`).
 * A duplicate, a refusal or a requote is answered (and a requote recorded) here; a submission that passes
 * is returned ready for that wallet, which it holds until it is done.
 */
export async function admit(
  port: KeeperPort,
  req: RoutedSubmission,
  pick: PickWallet,
  timings: SubmitTimings,
  gate: TakerGate = NO_GATE,
): Promise<Prepared | SubmitOutcome> {
  const found = await read(port, req, timings);
  if (!found) return quoteNotFound(req.quoteId);
  const keyRefusal = await firstRefusal(keyChecks, found);
  if (keyRefusal) return answerOf(keyRefusal);
  const chain = onChain(found);
  if (!("chain" in chain)) return chain;
  const chainRefusal = await firstRefusal(chainChecks, chain);
  if (chainRefusal) return answerOf(chainRefusal);
  // `chainChecks` passed: the keeper has wallets there, and the taker's part is in its field.
  const wallet = typeof chain.settlers === "string" ? null : pick(chain.settlers);
  if (!wallet) return notLeader("recovering");
  const takerPart = req.takerPart[chain.settlement.submissionField] as string;
  const now = iso(port.now());
  const request = fillRequestOf(found.quote, takerPart, req.permit);
  const trial = new Trial(
    port,
    found.quote,
    request,
    termsOf(found.quote, found.idempotencyKey, now),
    wallet,
    timings,
    gate,
    chain.settlement,
  );
  const checked = await tried(trial);
  if (checked.kind !== "prepared") wallet.release();
  return checked;
}

/**
 * The quote, the repeated key's execution (found through the quote's taker in SQL) and which of the
 * quotes the leader took the key for is the taker's, in one D1 round trip; only this read, under the
 * key's lock, sees a repeat that ran concurrently (docs/settlement.md, "Idempotency-Key"). Null: no quote.
 */
async function read(port: KeeperPort, req: RoutedSubmission, timings: SubmitTimings): Promise<Found | null> {
  const now = iso(port.now());
  const key = req.idempotencyKey || null;
  const readOnce = () =>
    readSubmission(port.records(req.quoteId), req.quoteId, key, now, req.keyTakenWith, (id) => port.records(id));
  const { quote, repeated, takenFor } = await timed(timings, "readMs", async () => {
    const found = await readOnce();
    if (found.quote) return found;
    // Not in D1 yet (written behind by its corridor, docs/architecture.md "Write-behind"): read again once
    // it is, for the key's reads need its taker.
    if (!(await port.writeThrough(req.quoteId))) return { quote: null, repeated: null, takenFor: null };
    return readOnce();
  });
  if (!quote) return null;
  const idempotencyKey = req.idempotencyKey ? scopedIdempotencyKey(quote.taker, req.idempotencyKey) : null;
  // Stored before its broadcast, with its key, in the keeper's own storage: a repeat after a crash that
  // came before D1 heard of it is answered from there (docs/settlement.md, "Idempotency-Key").
  const followed = port.store.forQuote(quote.quoteId);
  return { port, req, now, quote, repeated, takenFor, idempotencyKey, followed };
}

/**
 * The trial's checks; on any refusal (or a chain that stops answering) the quote's claim is given up
 * here, the one place that releases it, before the refusal is answered.
 */
async function tried(trial: Trial): Promise<Prepared | SubmitOutcome> {
  const { port, quote, wallet, timings } = trial;
  try {
    const refusal = await firstRefusal(trialChecks, trial);
    if (refusal) {
      await trial.claim?.release();
      return answerOf(refusal);
    }
  } catch (e) {
    await trial.claim?.release();
    if (!(e instanceof ChainUnavailableError)) throw e;
    keeperLog.error("rpc_unavailable", { chainId: quote.chainId, error: e.message });
    return notLeader("rpc_unavailable");
  }
  // Read after the checks: a fade replaces the winner's request and terms with the next offer's.
  const { fill, request, terms } = trial;
  if (!fill) throw new Error("a trial passed without a simulated fill");
  const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
  const submission = {
    ...terms,
    request,
    call: fill.call,
    gasFeeToken: quote.gasFee.token,
    corridorKey: corridor?.key ?? null,
  };
  return { kind: "prepared", settler: wallet.settler, wallet, timings, fill, submission };
}

/** What the chain's settler needs of a quote to simulate, sign and follow its fill, with the taker's part. */
export function fillRequestOf(quote: QuoteRow, takerPart: string, permit: FillRequest["permit"]): FillRequest {
  return {
    quoteId: quote.quoteId,
    taker: quote.taker,
    sellToken: quote.sellToken,
    buyToken: quote.buyToken,
    gasFeeToken: quote.gasFee.token,
    feeToken: quote.fee.token,
    takerPays: quote.takerPays,
    signing: quote.signing,
    signature: takerPart,
    permit,
  };
}
