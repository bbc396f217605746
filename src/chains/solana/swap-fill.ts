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

/** What one maker's legs moved, as `swapFillsOf` gathers them. */
interface MakerMoves {
  resolver: string;
  sale: bigint;
  delivery: { amount: bigint; index: number } | null;
  fee: bigint;
  gasFee: bigint;
}

/**
 * The fills a landed swap made, one per maker, in the shape the indexer records (docs/settlement.md, "What
 * a Solana fill records"), from the transfers that moved: each is told apart by where it went (the keeper's
 * gas-fee account, the treasury's fee account) and who paid it (the taker's sale, a maker's delivery to the
 * recipient). Every resolver paying the buy token is a maker; the taker's sale to a maker is the one into
 * its sell-token account, and a fee paid by the taker (in the sell token: one maker only) is its one
 * maker's. A fee charged in the buy token is part of the maker's output; one in the sell token the taker
 * paid on top of its sale (`sellAmount` is the sale alone). `orderHash` is the quote's order, the hash of
 * the swap's signed message (`swapOrderHash`), the same for every leg, and `logIndex` the instruction index
 * of the maker's delivery. None when the receipt moved no sale from the taker or no delivery from a maker.
 */
export function swapFillsOf(chain: SolanaChain, receipt: SwapReceipt, parties: SwapParties): FillEvent[] {
  const keeperAccount = accountOf(chain, chain.keeper, parties.gasFeeToken);
  const treasuryAccount = accountOf(chain, chain.treasury, parties.feeToken);
  const makers = new Map<string, MakerMoves>();
  for (const t of receipt.fills) {
    if (t.from === parties.taker || t.mint !== parties.buyToken || makers.has(t.from)) continue;
    makers.set(t.from, { resolver: t.from, sale: 0n, delivery: null, fee: 0n, gasFee: 0n });
  }
  const first = makers.values().next().value;
  if (!first) return [];
  const makerOf = (from: string) => makers.get(from) ?? first;
  const saleTo = (account: string) =>
    [...makers.values()].find((m) => accountOf(chain, m.resolver, parties.sellToken) === account) ?? first;
  let sold = false;
  for (const t of receipt.fills) {
    if (t.destination === keeperAccount && t.mint === parties.gasFeeToken) makerOf(t.from).gasFee += t.amount;
    else if (t.destination === treasuryAccount && t.mint === parties.feeToken) makerOf(t.from).fee += t.amount;
    else if (t.from === parties.taker && t.mint === parties.sellToken) {
      saleTo(t.destination).sale += t.amount;
      sold = true;
    } else if (t.mint === parties.buyToken && !makerOf(t.from).delivery) {
      makerOf(t.from).delivery = { amount: t.amount, index: t.index };
    }
  }
  if (!sold) return [];
  const gasOnBuy = parties.gasFeeToken === parties.buyToken;
  const feeOnBuy = parties.feeToken === parties.buyToken;
  return [...makers.values()].flatMap((m) =>
    m.delivery
      ? [
          {
            orderHash: receipt.orderHash,
            quoteId: parties.quoteId,
            resolver: m.resolver,
            filler: chain.keeper,
            taker: parties.taker,
            sellToken: parties.sellToken,
            sellAmount: m.sale,
            buyToken: parties.buyToken,
            outputAmount: m.delivery.amount + (feeOnBuy ? m.fee : 0n) + (gasOnBuy ? m.gasFee : 0n),
            received: m.delivery.amount,
            fee: m.fee,
            gasFee: m.gasFee,
            logIndex: m.delivery.index,
          },
        ]
      : [],
  );
}

/** The fill of a swap of one maker (`swapFillsOf`'s one), or null. */
export function swapFillOf(chain: SolanaChain, receipt: SwapReceipt, parties: SwapParties): FillEvent | null {
  return swapFillsOf(chain, receipt, parties)[0] ?? null;
}
