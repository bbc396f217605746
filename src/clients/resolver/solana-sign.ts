import { VersionedTransaction } from "@solana/web3.js";
import { quoteAmounts } from "../../auction/amounts";
import { feeChargeFor } from "../../chains/fee-charge";
import { buildSwapTransaction } from "../../chains/solana/swap-transaction";
import { equalBytes, messageBytes, readWireBase64 } from "../../chains/solana/wire";
import type { SolanaChain } from "../../config/schema";
import type { RelayFrame, RfqFrame } from "../../protocol/relay-frames";
import { asError } from "./events";
import type { SolanaSigner } from "./keys";
import { checkLegSignRequest } from "./solana-leg-check";

export type SignCheck = { ok: true; message: Uint8Array } | { ok: false; reason: string };

/**
 * Whether the transaction a Solana `sign` asks this node to sign moves exactly what it bid, and nothing
 * else (docs/resolver-protocol.md, "Signing after the auction"): the node builds the swap its bid implies
 * from the rfq, the chain's published settings and the request's own blockhash, and the two messages must
 * be the same bytes. On success, `message` is what to sign.
 */
export function checkSignRequest(
  chain: SolanaChain,
  rfq: RfqFrame,
  bid: { resolver: string; outputAmount: bigint },
  transaction: string,
): SignCheck {
  const wire = readWireBase64(transaction);
  if (!wire) return { ok: false, reason: "not a Solana transaction" };
  const asked = messageBytes(wire);
  // The fee is charged in the rfq's `fee.token`: from the taker on top of the sale when it is the sell token.
  const same = (a: string, b: string) => a === b;
  const fee = feeChargeFor({ tokens: [rfq.fee.token], bps: rfq.fee.bps }, rfq.sellToken, rfq.buyToken, same);
  const amounts = quoteAmounts({
    sellAmount: BigInt(rfq.sellAmount),
    outputAmount: bid.outputAmount,
    fee,
    gas: {
      token: rfq.gasFee.token,
      amount: BigInt(rfq.gasFee.amount),
      side: rfq.gasFee.token === rfq.sellToken ? "sell" : "buy",
    },
  });
  if (!amounts) return { ok: false, reason: "the bid does not cover the fees" };
  let expected: Uint8Array;
  try {
    const tx = buildSwapTransaction(
      chain,
      {
        corridor: "",
        rfqId: rfq.rfqId,
        quoteId: rfq.quoteId,
        chain,
        taker: rfq.taker,
        recipient: rfq.recipient,
        sellToken: rfq.sellToken,
        buyToken: rfq.buyToken,
        sellAmount: BigInt(rfq.sellAmount),
        deadline: rfq.deadline,
        gasFeeToken: rfq.gasFee.token,
        fee,
      },
      { resolver: bid.resolver, amounts },
      VersionedTransaction.deserialize(wire.bytes).message.recentBlockhash,
    );
    expected = tx.message.serialize();
  } catch (e) {
    return { ok: false, reason: `the rfq does not make a swap: ${(e as Error).message}` };
  }
  return equalBytes(asked, expected)
    ? { ok: true, message: asked }
    : { ok: false, reason: "the transaction does not move exactly what was bid" };
}

/** Why the node did not answer a `sign` request: it answers only for the swap its own bid implies. */
export class SignRefusedError extends Error {
  override readonly name = "SignRefusedError";
  constructor(
    readonly rfqId: string,
    readonly reason: string,
  ) {
    super(`refused to sign the transaction of ${rfqId}: ${reason}`);
  }
}

type SignFrame = Extract<RelayFrame, { type: "sign" }>;

/** A Solana bid the node sent. */
interface SolanaBid {
  corridor: string;
  rfq: RfqFrame;
  outputAmount: bigint;
  /** The part of the rfq it bid for (docs/legs.md); absent for the whole. */
  sellAmount?: bigint;
}

/**
 * The Solana bids the node sent, by rfq id, each kept until its `sign` request, its `result` or its
 * deadline, so that the node signs a winning swap only if it moves exactly what it bid.
 */
export class SolanaBids {
  private readonly bids = new Map<string, SolanaBid>();

  remember(corridor: string, rfq: RfqFrame, outputAmount: bigint, sellAmount?: bigint): void {
    const now = Date.now() / 1000;
    for (const [rfqId, bid] of this.bids) if (bid.rfq.deadline < now) this.bids.delete(rfqId);
    this.bids.set(rfq.rfqId, { corridor, rfq, outputAmount, ...(sellAmount === undefined ? {} : { sellAmount }) });
  }

  /** The auction is over, signed or not: nothing more will be asked about this bid. */
  settled(corridor: string, rfqId: string): void {
    if (this.bids.get(rfqId)?.corridor === corridor) this.bids.delete(rfqId);
  }

  /**
   * The answer to a winner's `sign` (docs/resolver-protocol.md, "Signing after the auction"): the
   * transaction must be, byte for byte, the swap the bid implies (`checkSignRequest`), or for a part
   * move exactly its leg (`checkLegSignRequest`); then the ed25519 signature over its message, with the bid
   * it answers. A whole bid's request consumes it; a part's is kept until its result, since the relay asks
   * again when it composes the fill anew without another leg's resolver that did not sign (docs/legs.md).
   */
  sign(
    corridor: string,
    settings: SolanaChain | undefined,
    signer: SolanaSigner | null | undefined,
    frame: SignFrame,
  ): (SolanaBid & { signature: string }) | SignRefusedError {
    const approved = this.approve(corridor, settings, signer, frame);
    if (typeof approved === "string") return new SignRefusedError(frame.rfqId, approved);
    return { ...approved.bid, signature: approved.signer.signBytes(approved.message) };
  }

  /** The message to sign, with the bid it answers and the key to sign it with; or why not. */
  private approve(
    corridor: string,
    settings: SolanaChain | undefined,
    signer: SolanaSigner | null | undefined,
    frame: SignFrame,
  ): { bid: SolanaBid; signer: SolanaSigner; message: Uint8Array } | string {
    const bid = this.bids.get(frame.rfqId);
    if (!bid || bid.corridor !== corridor) return "this node sent no Solana bid for it on this corridor";
    if (bid.sellAmount === undefined) this.bids.delete(frame.rfqId);
    if (!signer || !settings) return "no Solana key or chain settings to check it with";
    try {
      const { outputAmount, sellAmount } = bid;
      const resolver = signer.address;
      const check =
        sellAmount === undefined
          ? checkSignRequest(settings, bid.rfq, { resolver, outputAmount }, frame.transaction)
          : checkLegSignRequest(settings, bid.rfq, { resolver, outputAmount, sellAmount }, frame.transaction);
      return check.ok ? { bid, signer, message: check.message } : check.reason;
    } catch (e) {
      return asError(e).message;
    }
  }
}
