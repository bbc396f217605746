import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../config";
import type { FillEvent } from "../settler";
import type { SwapReceipt } from "./swap-receipt";

/** The parts of a stored Solana quote a fill is read against. */
export interface SwapParties {
  quoteId: string;
  taker: string;
  sellToken: string;
  buyToken: string;
  gasFeeToken: string;
  /** The token the protocol fee was charged in (`feeChargeFor`). */
  feeToken: string;
}

function accountOf(chain: SolanaChain, owner: string, mint: string): string | null {
  const token = chain.tokens.find((t) => t.address === mint);
  if (!token) return null;
  return getAssociatedTokenAddressSync(
    new PublicKey(mint),
    new PublicKey(owner),
    true,
    new PublicKey(token.tokenProgram),
  ).toBase58();
}

/**
 * The fill a landed swap made, in the shape the indexer records (docs/settlement.md, "What a Solana fill
 * records"), from the transfers that moved: each is told apart by where it went (the keeper's gas-fee
 * account, the treasury's fee account) and who paid it (the taker's sale, the resolver's delivery to the
 * recipient). A fee charged in the buy token is part of the resolver's output; one in the sell token the
 * taker paid on top of its sale (`sellAmount` is the sale alone). `orderHash` is the quote's order, the
 * hash of the swap's signed message (`swapOrderHash`), and `logIndex` the instruction index of the
 * resolver's delivery. Null when the receipt moved no sale from the taker or no delivery from a resolver.
 */
export function swapFillOf(chain: SolanaChain, receipt: SwapReceipt, parties: SwapParties): FillEvent | null {
  const keeperAccount = accountOf(chain, chain.keeper, parties.gasFeeToken);
  const treasuryAccount = accountOf(chain, chain.treasury, parties.feeToken);
  let sale: bigint | null = null;
  let delivery: { from: string; amount: bigint; index: number } | null = null;
  let fee = 0n;
  let gasFee = 0n;
  for (const t of receipt.fills) {
    if (t.destination === keeperAccount && t.mint === parties.gasFeeToken) gasFee += t.amount;
    else if (t.destination === treasuryAccount && t.mint === parties.feeToken) fee += t.amount;
    else if (t.from === parties.taker && t.mint === parties.sellToken) sale = (sale ?? 0n) + t.amount;
    else if (t.mint === parties.buyToken && !delivery) delivery = { from: t.from, amount: t.amount, index: t.index };
  }
  if (sale === null || !delivery) return null;
  const gasOnBuy = parties.gasFeeToken === parties.buyToken;
  const feeOnBuy = parties.feeToken === parties.buyToken;
  return {
    orderHash: receipt.orderHash,
    quoteId: parties.quoteId,
    resolver: delivery.from,
    filler: chain.keeper,
    taker: parties.taker,
    sellToken: parties.sellToken,
    sellAmount: sale,
    buyToken: parties.buyToken,
    outputAmount: delivery.amount + (feeOnBuy ? fee : 0n) + (gasOnBuy ? gasFee : 0n),
    received: delivery.amount,
    fee,
    gasFee,
    logIndex: delivery.index,
  };
}
