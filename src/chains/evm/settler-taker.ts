import type { Address, Hex } from "viem";
import type { FillRequest, TakerCheck } from "../settler";
import { isLimitSigning, limitTakerTyped, parseLimitSigning } from "./limit-call";
import { parseSigning } from "./stored-signing";
import { takerTypedData } from "./typed-data";
import { typedDataDigest } from "./typed-data-digest";
import type { WalletVerdict } from "./wallet-signature";

/**
 * The digest Permit2 checks the taker's signature against: that of the typed data an RFQ fill, or a limit
 * order's round, asked it to sign. No RPC. The typed data is the relay's own, rebuilt from the stored
 * terms, so its digest skips viem's validation (src/chains/evm/typed-data-digest.ts).
 */
export function takerDigest(
  chain: { chainId: number; permit2: Address; executor: Address; reactor: Address },
  request: FillRequest,
): Hex {
  const { chainId, permit2, executor, reactor } = chain;
  if (isLimitSigning(request.signing)) {
    const limit = parseLimitSigning(request.quoteId, request.signing);
    return typedDataDigest(limitTakerTyped(chainId, { permit2, reactor }, limit));
  }
  const { order, permit } = parseSigning(request.signing);
  const typed = takerTypedData({
    chainId,
    permit2,
    executor,
    sellToken: permit.permitted.token,
    takerPays: permit.permitted.amount,
    nonce: permit.nonce,
    deadline: permit.deadline,
    order,
  });
  return typedDataDigest(typed);
}

/**
 * The submission's answer to the chain's verdict on the taker's signature of `takerDigest`
 * (src/chains/evm/wallet-signature.ts): a taker without code is told the part of the strict rule its
 * signature breaks, when that is why; one with code, that its wallet refused.
 */
export function takerCheckOf(verdict: WalletVerdict): TakerCheck {
  if (verdict.ok) return { ok: true };
  if (verdict.path === "code") {
    return {
      ok: false,
      code: "bad_signature",
      reason: "the taker's address has code, and its isValidSignature (ERC-1271) refuses the signature",
    };
  }
  if (verdict.rule) return { ok: false, code: "bad_signature", reason: verdict.rule, rule: verdict.rule };
  return { ok: false, code: "bad_signature", reason: "not the taker's signature over the typedData" };
}
