import { quoteIdToBytes32 } from "../../chains/evm/typed-data";
import type { Eip712Commitment, RfqFrame } from "../../protocol/frames";
import { sameToken } from "./pricing";

/**
 * The first field where an rfq's `toSign` disagrees with the rfq itself, or null. A resolver prices the
 * rfq's fields but signs `toSign`, so it signs only when the two describe the same fill, under the
 * executor of the rfq's chain: otherwise a relay could obtain a signature for a fill that was never priced.
 */
export function toSignMismatch(rfq: RfqFrame, toSign: Eip712Commitment, executor: string): string | null {
  const { domain, message } = toSign;
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : null);
  let quoteId: string;
  try {
    quoteId = quoteIdToBytes32(rfq.quoteId);
  } catch {
    return "quoteId";
  }
  const checks: [string, boolean][] = [
    ["domain.chainId", text(domain.chainId) === String(rfq.chainId)],
    ["domain.verifyingContract", sameToken(text(domain.verifyingContract) ?? "", executor)],
    ["quoteId", text(message.quoteId)?.toLowerCase() === quoteId.toLowerCase()],
    ["taker", sameToken(text(message.taker) ?? "", rfq.taker)],
    ["sellToken", sameToken(text(message.sellToken) ?? "", rfq.sellToken)],
    ["sellAmount", text(message.sellAmount) === rfq.sellAmount],
    ["buyToken", sameToken(text(message.buyToken) ?? "", rfq.buyToken)],
    ["deadline", text(message.deadline) === String(rfq.deadline)],
  ];
  return checks.find(([, ok]) => !ok)?.[0] ?? null;
}
