/**
 * One chaos run (docs/operations.md, "Deploys and crashes"): takers swap back to back through a relay that
 * is crashed and started again on a schedule, then the indexer is let catch up and every answer the takers
 * got is set against what the relay answers now and what the chains show. Shared by `npm run chaos` and
 * its short version in `npm test` (test/e2e/chaos.test.ts).
 */
import type { Keypair } from "@solana/web3.js";
import type { Limits } from "../../../src/schemas/limits";
import { type ChainsUnderTest, markChains, readChains } from "./chain-audit";
import { type Aim, type CrashableRelay, type CrashRecord, crashOnSchedule, SubmissionWatch } from "./crashes";
import type { HeldBroadcasts } from "./held-broadcasts";
import { type ChainView, type ChaosLedger, emptyLedger, type RelayView } from "./ledger";
import { type LimitOrderPlan, limitOrderMidRun } from "./limit-taker";
import { pacing } from "./pacing";
import { catchUp, readRelay } from "./relay-audit";
import { type EvmTaker, evmTaker, type Pair, solanaTaker, type TakerRun } from "./takers";
import { chaosVerdict, type Verdict } from "./verdict";

export interface ChaosPlan {
  relay: CrashableRelay;
  /** The relay's published limits (`GET /v1/config`), which the takers keep to. */
  limits: Limits;
  chains: ChainsUnderTest;
  evm: { takers: readonly EvmTaker[]; pair: Pair };
  solana: { takers: readonly Keypair[]; pair: Pair } | null;
  /** Placed a third of the way in; `at` and `followUntil` are set from the run's own clock. */
  limitOrder: Omit<LimitOrderPlan, "at" | "followUntil"> | null;
  durationMs: number;
  /** When (ms from the start) and at what each crash strikes (options.ts, `crashSchedule`). */
  crashes: readonly { at: number; aim: Aim }[];
  /** The keeper's RPC proxies, where a crash aimed at a broadcast waits for one (held-broadcasts.ts). */
  broadcasts: readonly HeldBroadcasts[];
  /** How long the indexer is given, after the takers stop, to take every execution to settled or failed. */
  catchUpMs: number;
  random: () => number;
  onCrash?: (crash: CrashRecord) => void;
  /** Every 10 s while the takers swap. */
  onProgress?: (line: string) => void;
}

export interface ChaosResult {
  verdict: Verdict;
  crashes: CrashRecord[];
  seconds: number;
  /** What the verdict was drawn from, for a run that needs looking into (`npm run chaos -- --out`). */
  evidence: { ledger: ChaosLedger; relay: RelayView; chain: ChainView };
}

export async function runChaos(plan: ChaosPlan): Promise<ChaosResult> {
  const takers = {
    evm: plan.evm.takers.map((t) => t.account.address),
    solana: (plan.solana?.takers ?? []).map((k) => k.publicKey.toBase58()),
  };
  const audited = plan.limitOrder ? { ...takers, evm: [...takers.evm, plan.limitOrder.account.address] } : takers;
  const mark = await markChains(plan.chains, audited);
  const ledger = emptyLedger();
  const watch = new SubmissionWatch();
  const start = Date.now();
  const until = start + plan.durationMs;
  const run: TakerRun = {
    relayUrl: plan.relay.url,
    until,
    ledger,
    random: plan.random,
    pacing: pacing(plan.limits),
    onSubmitting: watch.sending,
  };
  const progress = setInterval(() => {
    const answered = ledger.swaps.filter((s) => s.answer).length;
    plan.onProgress?.(
      `${Math.round((Date.now() - start) / 1000)} s: ${ledger.swaps.length} swaps, ${answered} answered`,
    );
  }, 10_000);
  const solana = plan.solana;
  let crashes: CrashRecord[];
  try {
    [crashes] = await Promise.all([
      crashOnSchedule(plan.relay, plan.crashes, start, {
        targets: { requests: watch, broadcasts: plan.broadcasts },
        random: plan.random,
        ...(plan.onCrash ? { onCrash: plan.onCrash } : {}),
      }),
      ...plan.evm.takers.map((t) => evmTaker(run, t, plan.evm.pair)),
      ...(solana ? solana.takers.map((k) => solanaTaker(run, k, solana.pair)) : []),
      plan.limitOrder
        ? limitOrderMidRun(run, {
            ...plan.limitOrder,
            at: start + plan.durationMs / 3,
            followUntil: until + plan.catchUpMs,
          })
        : Promise.resolve(),
    ]);
  } finally {
    clearInterval(progress);
  }
  const seconds = Math.round((Date.now() - start) / 1000);
  const executions = await catchUp(plan.relay.url, ledger, plan.catchUpMs);
  const chain = await readChains(plan.chains, audited, mark);
  const named = new Set(ledger.swaps.map((s) => s.quoteId));
  const strangers = chain.fills.flatMap((f) => (f.quoteId && !named.has(f.quoteId) ? [f.quoteId] : []));
  const relay = await readRelay(plan.relay.url, ledger, executions, strangers);
  return {
    verdict: chaosVerdict(ledger, relay, chain, crashes.length),
    crashes,
    seconds,
    evidence: { ledger, relay, chain },
  };
}
