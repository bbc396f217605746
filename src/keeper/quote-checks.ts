import { type ChainSettler, type SettlementScheme, settlerFor } from "../chains";
import type { ChainConfig } from "../config";
import { type ExecutionRow, expireIfDue, type QuoteRow } from "../db";
import type { Check } from "./checks";
import {
  chainNotServed,
  duplicateOf,
  keeperRefusal,
  keyReused,
  notLeader,
  quoteExpired,
  quoteNotOpen,
  storedDuplicate,
} from "./outcomes";
import type { PendingTx } from "./pending";
import type { KeeperPort } from "./port";
import type { RoutedSubmission } from "./rpc";

/** A submission whose quote was found, with what the one read of D1 and the keeper's storage say of it. */
export interface Found {
  port: KeeperPort;
  req: RoutedSubmission;
  /** The time of the submission, as D1 holds it. */
  now: string;
  quote: QuoteRow;
  /** The execution a repeated Idempotency-Key made for its quote. */
  repeated: ExecutionRow | null;
  /** The quote the leader took the key for, when that is the taker's. */
  takenFor: string | null;
  /** The key, scoped to the quote's taker. */
  idempotencyKey: string | null;
  /** The quote's transaction, when the keeper follows one. */
  followed: PendingTx | null;
}

/** A found submission on a chain of the configuration. */
export interface OnChain extends Found {
  chain: ChainConfig;
  settlement: SettlementScheme;
  /** The keeper's wallets on the chain. */
  settlers: readonly ChainSettler[] | "no_key";
}

/**
 * The checks of the quote and its key, in order (docs/settlement.md, "Admission"): a repeat is answered
 * with the first execution, found in D1 or (before D1 heard of it, after a crash) in the keeper's storage
 * (docs/settlement.md, "Idempotency-Key").
 */
export const keyChecks: readonly Check<Found>[] = [
  {
    name: "key_for_this_quote",
    verdict: ({ repeated, quote }) =>
      repeated && repeated.quoteId !== quote.quoteId ? keyReused(repeated.quoteId) : null,
  },
  { name: "not_a_repeat", verdict: ({ repeated }) => (repeated ? duplicateOf(repeated) : null) },
  { name: "key_not_taken", verdict: ({ takenFor }) => (takenFor ? keyReused(takenFor) : null) },
  {
    name: "not_a_stored_repeat",
    verdict: ({ followed, idempotencyKey }) =>
      followed && idempotencyKey !== null && followed.submission.idempotencyKey === idempotencyKey
        ? storedDuplicate(followed)
        : null,
  },
  {
    name: "same_chain",
    verdict: ({ req, quote }) =>
      req.chainId !== undefined && req.chainId !== quote.chainId
        ? keeperRefusal("wrong_chain", `The quote is on chain ${quote.chainId}, not ${req.chainId}.`)
        : null,
  },
];

/** The checks once the quote's chain is known, in order: the taker's part, the keeper, the quote's state. */
export const chainChecks: readonly Check<OnChain>[] = [
  {
    // The taker's part sits in the body field the chain's settlement names.
    name: "taker_part",
    verdict: ({ req, settlement: { submissionField, submissionHint } }) =>
      req.takerPart[submissionField] === undefined
        ? keeperRefusal("invalid_request", "The request failed validation.", {
            issues: [{ path: submissionField, message: submissionHint }],
          })
        : null,
  },
  {
    // A taker that names the minimum it signed hears which field is wrong rather than `bad_signature`.
    name: "witness_min_received",
    verdict: ({ req, quote }) =>
      req.minReceived !== undefined && req.minReceived !== quote.minReceived
        ? keeperRefusal("invalid_request", "The request failed validation.", {
            issues: [{ path: "minReceived", message: `differs from the quote's minReceived ${quote.minReceived}` }],
          })
        : null,
  },
  { name: "keeper_not_paused", verdict: ({ req }) => (req.paused ? notLeader("keeper_paused") : null) },
  { name: "quote_not_expired", verdict: ({ quote }) => (quote.status === "expired" ? quoteExpired() : null) },
  {
    name: "quote_open",
    verdict: ({ quote: { status } }) => (status !== "quoted" && status !== "signed" ? quoteNotOpen(status) : null),
  },
  {
    // Open in D1 but followed by the keeper: broadcast, and D1 not written yet (the indexer will).
    name: "fill_not_on_its_way",
    verdict: ({ followed }) =>
      followed
        ? keeperRefusal("quote_not_open", "A fill of this quote is already on its way.", { status: "submitted" })
        : null,
  },
  {
    name: "quote_in_time",
    verdict: async ({ port, quote, now }) => {
      if (quote.expiresAt > now) return null;
      await expireIfDue(port.records(quote.quoteId), quote.quoteId, now);
      return quoteExpired();
    },
  },
  {
    name: "keeper_configured",
    verdict: ({ settlers }) =>
      settlers === "no_key" || settlers.length === 0 ? notLeader("keeper_not_configured") : null,
  },
];

/** The quote's chain, when the configuration has it; else the refusal. */
export function onChain(found: Found): OnChain | ReturnType<typeof chainNotServed> {
  const chain = found.port.config().chains.find((c) => c.chainId === found.quote.chainId);
  if (!chain) return chainNotServed(found.quote.chainId);
  return { ...found, chain, settlement: settlerFor(chain), settlers: found.port.settlers(chain) };
}
