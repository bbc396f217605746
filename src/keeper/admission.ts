import {
  type ChainSettler,
  ChainUnavailableError,
  type FillRequest,
  findCorridor,
  type PreparedFill,
  settlerFor,
} from "../chains";
import {
  type Claim,
  claimOpenQuote,
  type ExecutionTerms,
  expireIfDue,
  type QuoteRow,
  readSubmission,
  releaseClaim,
  scopedIdempotencyKey,
} from "../db";
import { type Refusal, refuse } from "../errors";
import { newId, tagOf } from "../ids";
import { iso } from "./iso";
import { keeperLog } from "./keeper-log";
import {
  chainNotServed,
  duplicateOf,
  keyReused,
  notLeader,
  quoteExpired,
  quoteNotFound,
  storedDuplicate,
} from "./outcomes";
import type { Submission } from "./pending";
import type { KeeperPort } from "./port";
import { requote } from "./requote";
import type { RoutedSubmission, SubmitOutcome, SubmitRequest, SubmitTimings } from "./rpc";
import { timed } from "./timings";
import type { WalletSlot } from "./wallet-pool";

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

/**
 * The taker's submission limit (docs/security.md, "Limits"). Only a submission whose signature verified
 * is counted (`count`: the refusal when that is over the limit), so a stranger cannot spend a taker's
 * limit with junk signatures; a taker already at its limit is refused before the chain is asked
 * (`over`, spending nothing).
 */
export interface TakerGate {
  over(taker: string): Refusal | null;
  count(taker: string): Refusal | null;
}

const NO_GATE: TakerGate = { over: () => null, count: () => null };

/**
 * Every check of a submission, in the order of docs/settlement.md, then its simulation from the wallet
 * `pick` gives it. A duplicate, a refusal or a requote is answered (and a requote recorded) here; a
 * submission that passes is returned ready for that wallet, which it holds until it is done.
 */
export async function admit(
  port: KeeperPort,
  req: RoutedSubmission,
  pick: PickWallet,
  timings: SubmitTimings,
  gate: TakerGate = NO_GATE,
): Promise<Prepared | SubmitOutcome> {
  const { db, store } = port;
  const now = iso(port.now());
  // The quote, the repeated key's execution (found through the quote's taker in SQL) and which of the
  // quotes the leader took the key for is the taker's, in one D1 round trip; only this read, under the
  // key's lock, sees a repeat that ran concurrently (docs/settlement.md, "Idempotency-Key").
  const key = req.idempotencyKey || null;
  const read = () => readSubmission(db, req.quoteId, key, now, req.keyTakenWith);
  const [quote, first, takenFor] = await timed(timings, "readMs", async () => {
    const found = await read();
    if (found.quote) return [found.quote, found.repeated, found.takenFor] as const;
    // Not in D1 yet (written behind by its corridor, docs/architecture.md "Write-behind"): read again once
    // it is, for the key's reads need its taker.
    if (!(await port.writeThrough(req.quoteId))) return [null, null, null] as const;
    const again = await read();
    return [again.quote, again.repeated, again.takenFor] as const;
  });
  if (!quote) return quoteNotFound(req.quoteId);
  const idempotencyKey = req.idempotencyKey ? scopedIdempotencyKey(quote.taker, req.idempotencyKey) : null;
  if (first && first.quoteId !== quote.quoteId) return keyReused(first.quoteId);
  if (first) return duplicateOf(first);
  if (takenFor) return keyReused(takenFor);
  // Stored before its broadcast, with its key, in the keeper's own storage: a repeat after a crash that
  // came before D1 heard of it is answered from there (docs/settlement.md, "Idempotency-Key").
  const followed = store.forQuote(quote.quoteId);
  if (followed && idempotencyKey !== null && followed.submission.idempotencyKey === idempotencyKey) {
    return storedDuplicate(followed);
  }
  if (req.chainId !== undefined && req.chainId !== quote.chainId) {
    return refuse(409, "wrong_chain", `The quote is on chain ${quote.chainId}, not ${req.chainId}.`);
  }
  const chain = port.config().chains.find((c) => c.chainId === quote.chainId);
  if (!chain) return chainNotServed(quote.chainId);
  // The taker's part sits in the body field the chain's settlement names.
  const { submissionField, submissionHint } = settlerFor(chain);
  const takerPart = req.takerPart[submissionField];
  if (takerPart === undefined) {
    return refuse(400, "invalid_request", "The request failed validation.", {
      issues: [{ path: submissionField, message: submissionHint }],
    });
  }
  if (req.paused) return notLeader("keeper_paused");
  const settlers = port.settlers(chain);
  if (quote.status === "expired") return quoteExpired();
  if (quote.status !== "quoted" && quote.status !== "signed") {
    return refuse(409, "quote_not_open", `The quote is ${quote.status}.`, { status: quote.status });
  }
  // Open in D1 but followed by the keeper: broadcast, and D1 not written yet (the indexer will).
  if (followed) {
    return refuse(409, "quote_not_open", "A fill of this quote is already on its way.", { status: "submitted" });
  }
  if (quote.expiresAt <= now) {
    await expireIfDue(db, quote.quoteId, now);
    return quoteExpired();
  }
  if (settlers === "no_key" || settlers.length === 0) return notLeader("keeper_not_configured");
  const wallet = pick(settlers);
  if (!wallet) return notLeader("recovering");
  const checked = await simulate(port, { ...req, takerPart }, quote, idempotencyKey, wallet, timings, gate);
  if (checked.kind !== "prepared") wallet.release();
  return checked;
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

/** The taker's signature and readiness, and the simulation from `wallet`; a requote is recorded. */
async function simulate(
  port: KeeperPort,
  req: Pick<SubmitRequest, "permit"> & { takerPart: string },
  quote: QuoteRow,
  idempotencyKey: string | null,
  wallet: WalletSlot,
  timings: SubmitTimings,
  gate: TakerGate,
): Promise<Prepared | SubmitOutcome> {
  const { settler } = wallet;
  const now = iso(port.now());
  const request = fillRequestOf(quote, req.takerPart, req.permit);
  const over = gate.over(quote.taker);
  if (over) return over;
  // The chain simulates while the taker's signature is checked here: the simulation only reads, and its
  // answer is dropped when the signature does not verify (docs/settlement.md, "The fast path"). The
  // wallet's nonce and the chain's fees are read beside them, so signing reads nothing.
  const warm = settler.ready();
  warm.catch(() => {});
  const start = performance.now();
  const simulating = settler.preflight(request, Math.floor(port.now() / 1000));
  simulating.catch(() => {});
  const taker = await timed(timings, "verifyMs", () => settler.verifyTaker(request));
  if (!taker.ok) {
    const message = taker.rule
      ? `The signature breaks the rule Permit2 applies: ${taker.rule}.`
      : takerRefusals[taker.code];
    return refuse(400, taker.code, message, { reason: taker.reason });
  }
  const counted = gate.count(quote.taker);
  if (counted) return counted;
  const terms: ExecutionTerms = {
    // The quote's corridor tag, so the leader finds the chain's keeper that answered it by its id alone.
    executionId: newId("x", tagOf(quote.quoteId)),
    quoteId: quote.quoteId,
    resolver: quote.resolver?.address ?? null,
    proceeds: quote.proceeds,
    takerPays: quote.takerPays,
    idempotencyKey,
    at: now,
  };
  // The quote is claimed while the simulation runs, and given up again if the simulation does not pass.
  const claim = new QuoteClaim(port, quote.quoteId, now);
  try {
    const preflight = await simulating;
    timings.simulateMs += performance.now() - start;
    switch (preflight.kind) {
      case "not_ready":
        await claim.release();
        return refuse(400, "taker_not_ready", "The taker's side cannot be pulled yet.", {
          reason: preflight.reason,
          detail: preflight.detail,
        });
      case "bad_signature":
        await claim.release();
        return refuse(400, "bad_signature", "The settlement contracts refuse the taker's signature.");
      case "keeper_refused":
        await claim.release();
        return notLeader(preflight.reason);
      case "requote":
        await claim.release();
        return requote(port, quote, terms, preflight.reason, timings);
    }
    await timed(timings, "simulateMs", () => warm);
    const refused = await timed(timings, "claimMs", () => claim.held());
    if (refused) return refused;
    const corridor = findCorridor(port.config(), quote.chainId, quote.sellToken, quote.buyToken);
    const { fill } = preflight;
    return {
      kind: "prepared",
      settler,
      wallet,
      timings,
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
    await claim.release();
    if (!(e instanceof ChainUnavailableError)) throw e;
    keeperLog.error("rpc_unavailable", { chainId: quote.chainId, error: e.message });
    return notLeader("rpc_unavailable");
  }
}

/**
 * The claim of a quote (`claimOpenQuote`: from then on a cancel is refused), started at once so that its
 * D1 round trip runs while the chain simulates the fill. `held` is the refusal when the quote was no
 * longer open; `release` gives a claim up when the submission stops before its fill is signed.
 */
class QuoteClaim {
  private readonly claiming: Promise<Claim>;

  constructor(
    private readonly port: KeeperPort,
    private readonly quoteId: string,
    private readonly now: string,
  ) {
    this.claiming = claimOpenQuote(port.db, quoteId, now);
    this.claiming.catch(() => {});
  }

  async held(): Promise<Refusal | null> {
    const claim = await this.claiming;
    if (claim.claimed) return null;
    if (claim.status === null || claim.status === "expired" || (claim.expiresAt ?? "") <= this.now) {
      return quoteExpired();
    }
    return refuse(409, "quote_not_open", `The quote is ${claim.status}.`, { status: claim.status });
  }

  async release(): Promise<void> {
    const claim = await this.claiming.catch(() => null);
    if (claim?.claimed) await releaseClaim(this.port.db, this.quoteId);
  }
}

const takerRefusals = {
  bad_signature: "The signature is not the taker's over the quote's typedData.",
  bad_transaction: "The transaction is not the quote's transaction signed by the taker, changed in nothing else.",
} as const;
