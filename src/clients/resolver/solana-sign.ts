import { VersionedTransaction } from "@solana/web3.js";
import { quoteAmounts } from "../../auction/amounts";
import { buildSwapTransaction } from "../../chains/solana/swap-transaction";
import { equalBytes, messageBytes, readWireBase64 } from "../../chains/solana/wire";
import type { SolanaChain } from "../../config/schema";
import type { RfqFrame } from "../../protocol/frames";

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
  const amounts = quoteAmounts({
    sellAmount: BigInt(rfq.sellAmount),
    outputAmount: bid.outputAmount,
    feeBps: rfq.fee.bps,
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
