import { type Address, type Hex, recoverTypedDataAddress } from "viem";
import type { FillRequest, TakerCheck } from "../settler";
import { isLimitSigning, limitTakerTyped, parseLimitSigning } from "./limit-call";
import { parseSigning } from "./stored-signing";
import { takerTypedData } from "./typed-data";

const refused = { ok: false, code: "bad_signature", reason: "not the taker's signature over the typedData" } as const;

/**
 * Whether `request.signature` is the taker's over what its quote asked it to sign: the Permit2 typed data
 * of an RFQ fill, or of a limit order's round. No RPC.
 */
export async function verifyEvmTaker(
  chain: { chainId: number; permit2: Address; executor: Address; reactor: Address },
  request: FillRequest,
  sameAddress: (a: string, b: string) => boolean,
): Promise<TakerCheck> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(request.signature)) return refused;
  const { chainId, permit2, executor, reactor } = chain;
  const signature = request.signature as Hex;
  let signer: Promise<Address>;
  if (isLimitSigning(request.signing)) {
    const limit = parseLimitSigning(request.quoteId, request.signing);
    signer = recoverTypedDataAddress({ ...limitTakerTyped(chainId, { permit2, reactor }, limit), signature });
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
    signer = recoverTypedDataAddress({ ...typed, signature });
  }
  try {
    return sameAddress(await signer, request.taker) ? { ok: true } : refused;
  } catch {
    return refused;
  }
}
