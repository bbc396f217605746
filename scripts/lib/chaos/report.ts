/** The chaos run's figures as `npm run chaos` prints them (docs/operations.md, "Deploys and crashes"). Pure. */
import type { ChaosCounts, Verdict } from "./verdict";
import { chaosFailed } from "./verdict";

/** The lines that must read 0, in the order printed. */
const MUST_BE_ZERO: readonly [keyof ChaosCounts, string][] = [
  ["lostAnswers", "lost answers"],
  ["keysAnsweredOtherwise", "keys answered otherwise"],
  ["doubledFills", "doubled fills"],
  ["fillsNotSettled", "fills not settled in the relay"],
  ["unresolved", "unresolved executions"],
  ["balanceMismatches", "balance mismatches"],
  ["retriesRefusedForRate", "retries refused for rate"],
  ["submissionsRefusedForRate", "first submissions refused for rate"],
  ["quotesRefusedForRate", "quotes refused for rate"],
  ["serverErrors", "stray 5xx answers"],
  ["takerErrors", "taker errors"],
];

/** At most this many problems are listed; the counts say how many there were. */
const LISTED_PROBLEMS = 20;

export function chaosReport(verdict: Verdict, seconds: number): string[] {
  const c = verdict.counts;
  const lines = [
    `swaps ${c.swaps} in ${seconds} s (answered ${c.answered}, settled ${c.settled}, gave up with nothing sent ${c.gaveUp})`,
    `crashes ${c.crashes}`,
    `limit orders filled ${c.limitOrdersFilled} of ${c.limitOrders}`,
    ...MUST_BE_ZERO.map(([key, label]) => `${label} ${c[key]}`),
  ];
  const shown = verdict.problems.slice(0, LISTED_PROBLEMS);
  if (shown.length) lines.push("", ...shown);
  if (verdict.problems.length > shown.length) lines.push(`… and ${verdict.problems.length - shown.length} more`);
  lines.push("", chaosFailed(c) ? "FAILED: the relay lost, doubled or refused something" : "ok: every count is zero");
  return lines;
}
