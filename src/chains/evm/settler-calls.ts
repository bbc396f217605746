import { type Address, type Hex, isHex } from "viem";
import type { FillCall, FillRequest } from "../settler";
import { isLimitSigning, limitCall, parseLimitSigning } from "./limit-call";
import { type DecodedRevert, revertOutcome } from "./revert-reasons";
import { decodedRevert, decodedRevertData } from "./rpc";
import type { EvmWallet, SettlementContracts } from "./settler-wallet";
import { fillCall, parseSigning } from "./stored-signing";

/** What a revert (decoded by name, or null) of a call from the keeper means, as a settlement outcome. */
function revertOf(revert: DecodedRevert | null, request: FillRequest, contracts: SettlementContracts) {
  const limit = isLimitSigning(request.signing);
  return revertOutcome(revert, {
    taker: request.taker,
    resolver: limit
      ? parseLimitSigning(request.quoteId, request.signing).bid.resolver
      : parseSigning(request.signing).resolver,
    permit2: contracts.permit2,
    executor: limit ? contracts.reactor : contracts.executor,
  });
}

/** Why a call from the keeper reverts, from viem's error. */
export const outcomeOf = (e: unknown, request: FillRequest, contracts: SettlementContracts) =>
  revertOf(decodedRevert(e), request, contracts);

/** Why a call from the keeper reverts, from a batch answer's revert data. */
export const outcomeOfData = (data: string | undefined, request: FillRequest, contracts: SettlementContracts) =>
  revertOf(data && isHex(data) ? decodedRevertData(data) : null, request, contracts);

/** The Permit2 nonce the taker signed: the quote's, or the limit order's in its round. */
export const permit2NonceOf = (request: FillRequest) =>
  isLimitSigning(request.signing)
    ? parseLimitSigning(request.quoteId, request.signing).nonce
    : parseSigning(request.signing).permit.nonce;

/** The settlement call: the executor's fill, or the reactor's in a limit order's round. */
export const callOf = (request: FillRequest, { executor, reactor }: SettlementContracts) =>
  isLimitSigning(request.signing) ? limitCall(reactor, request) : fillCall(executor, request);

/** A call as sent from the keeper's wallet. */
export const callFrom = ({ account }: EvmWallet, call: FillCall) => ({
  account: account.address,
  to: call.to as Address,
  data: call.data as Hex,
});
