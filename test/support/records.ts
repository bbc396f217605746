import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { insertQuoteStatements } from "../../src/db/quote-writes";
import type { QuoteRow } from "../../src/db/quotes";
import { newId } from "../../src/ids";
import type { Offer, TimelineEntry } from "../../src/schemas/quote";
import { insertExecutionStatement } from "./execution-rows";

const TAKER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** A quote as the auction stores it, for tests that read records back. */
export function sampleQuote(overrides: Partial<QuoteRow> = {}): QuoteRow {
  const now = Date.now();
  return {
    quoteId: newId("q"),
    rfqId: newId("rfq"),
    chainId: 31337,
    status: "quoted",
    final: false,
    taker: TAKER,
    recipient: TAKER,
    sellToken: CNGN,
    buyToken: USDC,
    sellAmount: "1500000000",
    received: "948950",
    minReceived: "948950",
    slippageBps: 0,
    fee: { token: USDC, amount: "1000" },
    gasFee: { token: USDC, amount: "50000", source: "fallback" },
    takerPays: "1500000000",
    proceeds: "1500000000",
    offersHash: `0x${"ab".repeat(32)}`,
    band: { base: "USD", quote: "NGN", mid: 1580.5, low: 1575, high: 1590, sources: 4, at: now },
    quotedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 30_000).toISOString(),
    resolver: { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", name: "alpha", solanaAddress: null },
    replies: { valid: 2, rejected: 0, declined: 1, noReply: 0, late: 0 },
    steering: { bandGuardBps: 300, minOutput: "900000", maxOutput: "1100000", outsideBand: [], demoted: [] },
    settlement: null,
    signing: { kind: "evm" },
    ...overrides,
  };
}

export const sampleOffers = (q: QuoteRow): Offer[] => [
  {
    resolver: q.resolver?.address ?? "",
    name: "alpha",
    outputAmount: "999950",
    rank: 1,
    status: "won",
    latencyMs: 41,
    won: true,
  },
  {
    resolver: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    name: "beta",
    outputAmount: "998000",
    rank: 2,
    status: "lost",
    latencyMs: 77,
    won: false,
  },
];

export const sampleTimeline = (q: QuoteRow): TimelineEntry[] => [
  { at: q.quotedAt, event: "requested", detail: null },
  { at: q.quotedAt, event: "quoted", detail: { latencyMs: 80 } },
];

/** A winner no other record names: no fill of another quote stands as evidence for or against it. */
export function freshResolver(name = "alpha") {
  return { address: privateKeyToAccount(generatePrivateKey()).address, name, solanaAddress: null };
}

export async function seedQuote(db: D1Database, overrides: Partial<QuoteRow> = {}) {
  const quote = sampleQuote(overrides);
  const offers = sampleOffers(quote);
  const timeline = sampleTimeline(quote);
  await db.batch(insertQuoteStatements(db, quote, offers, timeline));
  return { quote, offers, timeline };
}

export async function seedExecution(db: D1Database, quoteId: string) {
  const at = new Date().toISOString();
  const execution = {
    executionId: newId("x"),
    quoteId,
    status: "submitted" as const,
    reason: null,
    blame: null,
    txHash: `0x${"cd".repeat(32)}`,
    submitter: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    gasUsed: null,
    resolver: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    proceeds: "1500000000",
    takerPays: "1500000000",
    createdAt: at,
    updatedAt: at,
  };
  await insertExecutionStatement(db, execution).run();
  return execution;
}
