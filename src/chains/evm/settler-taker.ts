import type { Address, Hex } from "viem";
import type { FillRequest, TakerCheck } from "../settler";
import { isLimitSigning, limitTakerTyped, parseLimitSigning } from "./limit-call";
import { parseSigning } from "./stored-signing";
import { recoverStrict, strictRuleBreach } from "./strict-signature";
import { takerTypedData } from "./typed-data";
import { typedDataDigest } from "./typed-data-digest";

const refused = { ok: false, code: "bad_signature", reason: "not the taker's signature over the typedData" } as const;

/**
 * Whether `request.signature` is the taker's over what its quote asked it to sign: the Permit2 typed data
 * of an RFQ fill, or of a limit order's round, under the strict rule Permit2 applies
 * (src/chains/evm/strict-signature.ts). No RPC. The typed data is the relay's own, rebuilt from the stored
 * terms, so its digest skips viem's validation (src/chains/evm/typed-data-digest.ts).
 */
export async function verifyEvmTaker(
  chain: { chainId: number; permit2: Address; executor: Address; reactor: Address },
  request: FillRequest,
  sameAddress: (a: string, b: string) => boolean,
): Promise<TakerCheck> {
  const { chainId, permit2, executor, reactor } = chain;
  let digest: Hex;
  if (isLimitSigning(request.signing)) {
    const limit = parseLimitSigning(request.quoteId, request.signing);
    digest = typedDataDigest(limitTakerTyped(chainId, { permit2, reactor }, limit));
  } else {
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
    digest = typedDataDigest(typed);
  }
  const breach = strictRuleBreach(request.signature);
  if (breach) return { ok: false, code: "bad_signature", reason: breach, rule: breach };
  const signer = recoverStrict(digest, request.signature);
  return signer && sameAddress(signer.address, request.taker) ? { ok: true } : refused;
}
