import type { ChainSettler, FillRequest, PreparedFill, SettlementScheme } from "../chains";
import type { ExecutionTerms, QuoteRow } from "../db";
import type { Refusal } from "../errors";
import { newId, tagOf } from "../ids";
import { isResolversOwn } from "../resolvers";
import type { Check } from "./checks";
import { recordFade, refill } from "./fade";
import { keeperRefusal, notLeader } from "./outcomes";
import type { KeeperPort } from "./port";
import { QuoteClaim } from "./quote-claim";
import { requote } from "./requote";
import type { SubmitTimings } from "./rpc";
import { judgeShortfall } from "./spent-by-relay";
import { timed } from "./timings";
import type { WalletSlot } from "./wallet-pool";

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

/**
 * The reads a trial starts together: the wallet's nonce and the chain's fees, the taker's signature as the
 * chain will check it, and the fill's simulation.
 */
interface Started {
  warm: Promise<void>;
  taker: ReturnType<ChainSettler["preflight"]>["taker"];
  simulating: ReturnType<ChainSettler["preflight"]>["fill"];
  at: number;
}

/**
 * A submission on trial from one wallet: its taker's signature and limit, its simulation and the claim of
 * its quote. What it holds (`claim`) is given up in one place, `admit`, when a check refuses it.
 */
export class Trial {
  claim: QuoteClaim | null = null;
  /** The fill the simulation passed. */
  fill: PreparedFill | null = null;
  private started: Started | null = null;

  /**
   * `request` and `terms` are the winner's until it fades: then the next offer's that fills the quote
   * (src/keeper/fade.ts). `scheme` puts another bid in the quote's signing; null: a fade requotes.
   */
  constructor(
    readonly port: KeeperPort,
    readonly quote: QuoteRow,
    public request: FillRequest,
    public terms: ExecutionTerms,
    readonly wallet: WalletSlot,
    readonly timings: SubmitTimings,
    readonly gate: TakerGate,
    readonly scheme: Pick<SettlementScheme, "withBid"> | null = null,
  ) {}

  /**
   * The chain simulates while the taker's signature is checked: the simulation only reads, and its answer
   * is dropped when the signature does not verify (docs/settlement.md, "The fast path"). On EVM the
   * signature's check reads the taker's code in the simulation's batch. The wallet's nonce and the chain's
   * fees are read beside them, so signing reads nothing.
   */
  start(): Started {
    const { settler } = this.wallet;
    const warm = settler.ready();
    warm.catch(() => {});
    const at = performance.now();
    const { taker, fill: simulating } = settler.preflight(this.request, Math.floor(this.port.now() / 1000));
    taker.catch(() => {});
    simulating.catch(() => {});
    this.started = { warm, taker, simulating, at };
    return this.started;
  }

  /** The reads `start` began; a check after the signature's reads them. */
  reads(): Started {
    if (!this.started) throw new Error("the trial's reads were not started");
    return this.started;
  }
}

const takerRefusals = {
  bad_signature: "The signature is not the taker's over the quote's typedData.",
  bad_transaction: "The transaction is not the quote's transaction signed by the taker, changed in nothing else.",
} as const;

/** The body field each refusal of the taker's part names. */
const takerFields = { bad_signature: "signature", bad_transaction: "transaction" } as const;

/** The checks of a submission's trial, in order (docs/settlement.md, "Admission"). */
export const trialChecks: readonly Check<Trial>[] = [
  { name: "taker_under_limit", verdict: ({ gate, quote }) => gate.over(quote.taker) },
  {
    name: "taker_signature",
    verdict: async (trial) => {
      const started = trial.start();
      const taker = await timed(trial.timings, "verifyMs", () => started.taker);
      if (taker.ok) return null;
      const message = taker.rule
        ? `The signature breaks the rule Permit2 applies: ${taker.rule}.`
        : takerRefusals[taker.code];
      return keeperRefusal(taker.code, message, { reason: taker.reason, field: takerFields[taker.code] });
    },
  },
  { name: "taker_counted", verdict: ({ gate, quote }) => gate.count(quote.taker) },
  {
    // The quote is claimed while the simulation runs, and given up again if the simulation does not pass.
    name: "fill_simulates",
    verdict: async (trial) => {
      const { port, quote, terms, timings } = trial;
      trial.claim = new QuoteClaim(port.records(quote.quoteId), quote.quoteId, terms.at);
      const { simulating, at } = trial.reads();
      const preflight = await simulating;
      timings.simulateMs += performance.now() - at;
      switch (preflight.kind) {
        case "not_ready":
          return keeperRefusal("taker_not_ready", "The taker's side cannot be pulled yet.", {
            reason: preflight.reason,
            detail: preflight.detail,
          });
        case "bad_signature":
          return keeperRefusal("bad_signature", "The settlement contracts refuse the taker's signature.");
        case "keeper_refused":
          return notLeader(preflight.reason);
        case "requote": {
          // A winner that fades is struck and the next offer fills the same signature, if one can; one the
          // relay's own fills left short is not struck (src/keeper/spent-by-relay.ts).
          // In a fill of several makers the chain names the leg that failed: its resolver is the one judged.
          const leg = preflight.resolver;
          const judged = leg && quote.resolver ? { ...quote, resolver: { ...quote.resolver, address: leg } } : quote;
          const reason = await judgeShortfall(port, judged, preflight);
          const faded =
            isResolversOwn(preflight.reason) && trial.scheme ? await refill(trial, trial.scheme, leg) : null;
          if (!faded) return () => requote(port, quote, terms, reason, timings, leg);
          await recordFade(trial, faded, reason);
          trial.request = faded.request;
          trial.terms = { ...terms, resolver: faded.lead.resolver };
          trial.fill = faded.fill;
          return null;
        }
      }
      trial.fill = preflight.fill;
      return null;
    },
  },
  {
    name: "quote_claimed",
    verdict: async (trial) => {
      await timed(trial.timings, "simulateMs", () => trial.reads().warm);
      return timed(trial.timings, "claimMs", async () => (trial.claim ? trial.claim.held() : null));
    },
  },
];

/** The execution a submission makes of `quote`, at `now`. */
export const termsOf = (quote: QuoteRow, idempotencyKey: string | null, now: string): ExecutionTerms => ({
  // The quote's corridor tag, so the leader finds the chain's keeper that answered it by its id alone.
  executionId: newId("x", tagOf(quote.quoteId)),
  quoteId: quote.quoteId,
  resolver: quote.resolver?.address ?? null,
  proceeds: quote.proceeds,
  takerPays: quote.takerPays,
  idempotencyKey,
  at: now,
});
