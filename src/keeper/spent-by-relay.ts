import { type QuoteRow, readQuoteRow, relayFillsSinceOver } from "../db";
import { blamed } from "../states";
import type { PendingTx } from "./pending";
import type { KeeperPort } from "./port";

/**
 * A winner short of its quote's output for the relay's own doing (docs/settlement.md, "When the relay spent
 * the winner's balance"): the corridor holds an open quote's output on its winner for that quote's taker
 * only (src/auction/taker-holds.ts), so two takers' quotes may both be won on one balance, and once the
 * first is filled the second's winner is short through no fault of its own. Blame is by evidence: the
 * shortfall is the relay's when the fills the keeper made of the same resolver and token that the auction's
 * view did not count (in flight at the auction, or settled since) come to at least it, that is when the
 * resolver, without them, would hold enough now. Then nobody is struck and the next bid fills the quote as
 * for a fade; any other shortfall stays `resolver:insufficient_balance`, a strike.
 */
export const SPENT_BY_RELAY = blamed("relay", "inventory_spent");

/** The reason the evidence is weighed for: a resolver short of its balance. */
const SHORT = blamed("resolver", "insufficient_balance");

/** A fee as a quote charges it: its token and amount. */
type Charge = { token: string; amount: string };

/** What the keeper knows of a short winner: the chain's reason, and by how much when the token says (EVM). */
export interface Shortfall {
  reason: string;
  shortfall?: bigint | undefined;
}

/** What the winner's leg pays: `received` and each fee charged in the buy token on top (src/auction/amounts.ts). */
export function winnersOutput(quote: { buyToken: string; received: string; fee: Charge; gasFee: Charge }): bigint {
  const inBuyToken = (t: Charge) => (t.token.toLowerCase() === quote.buyToken.toLowerCase() ? BigInt(t.amount) : 0n);
  return BigInt(quote.received) + inBuyToken(quote.fee) + inBuyToken(quote.gasFee);
}

type Judged = Pick<
  QuoteRow,
  "quoteId" | "chainId" | "buyToken" | "received" | "fee" | "gasFee" | "quotedAt" | "resolver"
>;

/**
 * The reason a short winner's fill is recorded with: SPENT_BY_RELAY when the relay's own fills explain the
 * shortfall, else the chain's. Only `resolver:insufficient_balance` is weighed; where the token does not say
 * by how much the resolver fell short, the whole of its output must be explained.
 */
export async function judgeShortfall(port: JudgingPort, quote: Judged, failed: Shortfall): Promise<string> {
  const resolver = quote.resolver?.address;
  if (failed.reason !== SHORT || !resolver) return failed.reason;
  const short = failed.shortfall ?? winnersOutput(quote);
  const auction = Date.parse(quote.quotedAt);
  const madeAfter = new Date(auction - port.config().quoteTtlSeconds * 1000).toISOString();
  const { quoteId, chainId, buyToken: token } = quote;
  const inFlight = inFlightOf(port.store.all(), { resolver, chainId, auction, madeAfter });
  const ask = { resolver, chainId, token, since: quote.quotedAt, madeAfter, quoteId, inFlight };
  return (await relayFillsSinceOver(port.allRecords(), ask)) >= short ? SPENT_BY_RELAY : failed.reason;
}

/** What judging reads: D1, the configuration, and the keeper's own transactions. */
type JudgingPort = Pick<KeeperPort, "records" | "allRecords" | "config" | "store">;

/**
 * The quotes of the keeper's transactions that fill `resolver` on the chain and that the auction at `auction`
 * did not count: made after `madeAfter`, and not landed before the auction (their D1 records may be on their
 * way still).
 */
export function inFlightOf(
  txs: readonly PendingTx[],
  at: { resolver: string; chainId: number; auction: number; madeAfter: string },
): string[] {
  return txs
    .filter((tx) => tx.chainId === at.chainId && tx.submission.resolver?.toLowerCase() === at.resolver.toLowerCase())
    .filter((tx) => tx.submission.at >= at.madeAfter && (tx.state !== "mined" || tx.since >= at.auction))
    .map((tx) => tx.submission.quoteId);
}

/**
 * A fill that reverted after broadcast for a short resolver, judged by the same evidence
 * (docs/settlement.md, "Attribution after broadcast"): two fills of one resolver sent at once both pass
 * their simulation, and the one that lands second meets the balance the first spent. The shortfall is
 * the replay's, where its token error says it.
 */
export async function judgeAfterBroadcast(
  port: JudgingPort,
  quoteId: string,
  failed: Shortfall & { leg?: string | undefined },
): Promise<string> {
  if (failed.reason !== SHORT) return failed.reason;
  const quote = await readQuoteRow(port.records(quoteId), quoteId);
  if (!quote) return failed.reason;
  // Of a fill of several makers the replay names the leg: its resolver is the one whose balance is weighed.
  const { leg } = failed;
  return judgeShortfall(
    port,
    leg && quote.resolver ? { ...quote, resolver: { ...quote.resolver, address: leg } } : quote,
    failed,
  );
}
