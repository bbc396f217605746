import { quoteIdToBytes32 } from "../../chains/evm/typed-data";
import { type Eip712Commitment, OUTPUT_AMOUNT_SLOT, type RfqFrame } from "../../protocol/relay-frames";
import { sameToken } from "./pricing";

/**
 * The first field where an EVM rfq's `toSign` disagrees with the rfq, or null: the node signs only a
 * commitment to the fill it priced. An RFQ signs an `RfqFill` for the executor; a limit order's round
 * (`rfq.limit`) a `LimitFill` of the order for the reactor (docs/resolver-protocol.md, "Limit rounds").
 */
export function toSignMismatch(
  rfq: RfqFrame,
  toSign: Eip712Commitment,
  contracts: { executor: string; reactor?: string },
): string | null {
  const { domain, message } = toSign;
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : null);
  let quoteId: string;
  try {
    quoteId = quoteIdToBytes32(rfq.quoteId);
  } catch {
    return "quoteId";
  }
  const contract = rfq.limit ? contracts.reactor : contracts.executor;
  // A limit round's terms are those of the order the taker signed, nested in the fill.
  const terms = (rfq.limit ? message.order : message) as Record<string, unknown> | undefined;
  if (!terms || typeof terms !== "object") return "order";
  const checks: [string, boolean][] = [
    ["primaryType", toSign.primaryType === (rfq.limit ? "LimitFill" : "RfqFill")],
    ["domain.chainId", text(domain.chainId) === String(rfq.chainId)],
    ["domain.verifyingContract", contract !== undefined && sameToken(text(domain.verifyingContract) ?? "", contract)],
    ["quoteId", text(message.quoteId)?.toLowerCase() === quoteId.toLowerCase()],
    ["taker", sameToken(text(terms.taker) ?? "", rfq.taker)],
    ["sellToken", sameToken(text(terms.sellToken) ?? "", rfq.sellToken)],
    ["sellAmount", text(terms.sellAmount) === rfq.sellAmount],
    ["buyToken", sameToken(text(terms.buyToken) ?? "", rfq.buyToken)],
    ["deadline", text(message.deadline) === String(rfq.deadline)],
    ["minOut", !rfq.limit || text(terms.minOut) === rfq.limit.minOut],
  ];
  return checks.find(([, ok]) => !ok)?.[0] ?? null;
}

/** The first word of a Solana bid's commitment text (docs/resolver-protocol.md, "What a bid signs"). */
export const SOLANA_BID_PREFIX = "relay-solana-bid";

/**
 * The first field where a Solana rfq's commitment text (`relay-solana-bid|<corridor>|<rfqId>|<quoteId>|
 * {outputAmount}|<deadline>`) disagrees with the rfq and the corridor it came on, or null. As with
 * EIP-712, the node signs only a commitment to the fill it priced, with one place for its amount.
 */
export function bidTextMismatch(rfq: RfqFrame, text: string, corridor: string): string | null {
  const parts = text.split("|");
  if (parts.length !== 6) return "format";
  const [prefix, onCorridor, rfqId, quoteId, slot, deadline] = parts;
  const checks: [string, boolean][] = [
    ["prefix", prefix === SOLANA_BID_PREFIX],
    ["corridor", onCorridor === corridor],
    ["rfqId", rfqId === rfq.rfqId],
    ["quoteId", quoteId === rfq.quoteId],
    ["outputAmount", slot === OUTPUT_AMOUNT_SLOT],
    ["deadline", deadline === String(rfq.deadline)],
  ];
  return checks.find(([, ok]) => !ok)?.[0] ?? null;
}

/**
 * The commitment text with the bid's amount in its one slot (`bidTextMismatch` has checked there is one),
 * and for a part (docs/legs.md) `|<sellAmount>` appended: the part's text.
 */
export function completeBidText(text: string, outputAmount: bigint, sellAmount?: bigint): string {
  const whole = text.replace(OUTPUT_AMOUNT_SLOT, outputAmount.toString());
  return sellAmount === undefined ? whole : `${whole}|${sellAmount}`;
}
