import { BaseError, type Hex, RpcRequestError } from "viem";
import { blamed } from "../../states";
import { type BroadcastResult, type SignedFill, settlerLog, type TxReceipt, type TxStatus } from "../settler";
import { refusalReason } from "./revert-reasons";
import { isTransportError, shortMessage } from "./rpc";
import { callFrom, outcomeOf } from "./settler-calls";
import { minedReason, minedRevert } from "./settler-revert";
import { type EvmWallet, minedNonce, presence } from "./settler-wallet";

/** Sends a signed transaction; a refusal for a transaction the node already has is `known`. */
export async function broadcast(wallet: EvmWallet, tx: Pick<SignedFill, "hash" | "raw">): Promise<BroadcastResult> {
  try {
    await wallet.client.request({ method: "eth_sendRawTransaction", params: [tx.raw as Hex] });
    return { status: "accepted" };
  } catch (e) {
    if (isTransportError(e) || !(e instanceof BaseError) || !e.walk((x) => x instanceof RpcRequestError)) {
      return { status: "unreachable", reason: shortMessage(e) };
    }
    // A refusal may only mean the node has it already (sent before, answer lost): ask by hash.
    try {
      if ((await presence(wallet, tx.hash)) === "known") return { status: "known" };
    } catch {
      return { status: "unreachable", reason: shortMessage(e) };
    }
    const details = e.walk((x) => x instanceof RpcRequestError) as RpcRequestError;
    return { status: "refused", reason: refusalReason(details.details || details.shortMessage) };
  }
}

/** Where a transaction stands once its receipt was read (`mined`, null while it is not mined). */
export async function statusOf(wallet: EvmWallet, tx: SignedFill, mined: TxReceipt | null): Promise<TxStatus> {
  if (mined?.status === "reverted") {
    const replay = (blockNumber: bigint) => wallet.client.call({ ...callFrom(wallet, tx.call), blockNumber });
    const outcome = await minedRevert(replay, (e) => outcomeOf(e, tx.request, wallet.contracts), mined.block);
    const reason = outcome ? minedReason(outcome) : blamed("relay", "reverted");
    const named = outcome?.kind === "requote" ? outcome : null;
    // The leg the revert names, when it does: of a fill of several makers its resolver is the one blamed (docs/legs.md).
    return {
      state: "reverted",
      reason,
      gasUsed: mined.gasUsed,
      ...(named?.shortfall === undefined ? {} : { shortfall: named.shortfall }),
      ...(named?.resolver === undefined ? {} : { resolver: named.resolver }),
    };
  }
  if (mined) return { state: "landed", receipt: mined };
  if ((await presence(wallet, tx.hash)) === "known") return { state: "pending" };
  // Gone from the network: another transaction took its nonce, or it was lost and is sent again.
  if ((await minedNonce(wallet)) > tx.nonce) return { state: "dropped" };
  const result = await broadcast(wallet, tx);
  if (result.status === "refused" || result.status === "unreachable") {
    settlerLog("rebroadcast_failed", { chainId: wallet.chain.chainId, txHash: tx.hash, reason: result.reason });
  }
  return { state: "pending" };
}
