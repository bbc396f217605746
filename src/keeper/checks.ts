import type { SubmitOutcome } from "./rpc";

/**
 * What a submission that fails a check is answered: the outcome, or (a requote) how to record and answer
 * it once what the submission holds is given up. Null: the check passes.
 */
export type Verdict = SubmitOutcome | (() => Promise<SubmitOutcome>) | null;

/** One check of a submission (docs/settlement.md, "Admission"): its name, and its verdict on `S`. */
export interface Check<S> {
  readonly name: string;
  readonly verdict: (submission: S) => Verdict | Promise<Verdict>;
}

/**
 * The verdict of the first check in `checks` that `submission` fails, in their order; null when it passes
 * every one. A check that answers at once is not awaited, so the checks between two reads run in one turn.
 */
export async function firstRefusal<S>(checks: readonly Check<S>[], submission: S): Promise<Verdict> {
  for (const check of checks) {
    const pending = check.verdict(submission);
    const verdict = pending instanceof Promise ? await pending : pending;
    if (verdict) return verdict;
  }
  return null;
}

/** The answer a verdict gives: a requote is recorded now. */
export const answerOf = (verdict: Exclude<Verdict, null>): SubmitOutcome | Promise<SubmitOutcome> =>
  typeof verdict === "function" ? verdict() : verdict;
