import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { type SwapParties, swapFillOf } from "../../src/chains/solana/swap-fill";
import type { SwapReceipt } from "../../src/chains/solana/swap-receipt";
import type { SwapTransfer } from "../../src/chains/solana/swap-transfers";
import { localSolana, mintOf } from "../support/solana-swap";

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
const taker = Keypair.generate().publicKey.toBase58();
const resolver = Keypair.generate().publicKey.toBase58();
const ata = (owner: string, mint: string) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true).toBase58();

/** A transfer of the swap as `swapTransfers` reads it, at instruction `index`. */
const move = (index: number, from: string, to: string, mint: string, amount: bigint): SwapTransfer => ({
  index,
  from,
  source: ata(from, mint),
  destination: ata(to, mint),
  mint,
  amount,
});

const receipt = (fills: SwapTransfer[]): SwapReceipt => ({
  signature: "sig",
  orderHash: `0x${"ab".repeat(32)}`,
  slot: 7,
  blockTime: null,
  status: "success",
  unitsConsumed: 30_000n,
  fee: 15_200n,
  keeperSpent: 15_200n,
  changes: [],
  created: [],
  fills,
});

describe("the fill a landed Solana swap made", () => {
  it("tells a sell-token fee the taker paid to the treasury from its sale, and leaves it out of the output", () => {
    const parties: SwapParties = {
      quoteId: "q_1",
      taker,
      sellToken: USDC,
      buyToken: CNGN,
      gasFeeToken: USDC,
      feeToken: USDC,
    };
    const fill = swapFillOf(
      localSolana,
      receipt([
        move(6, taker, resolver, USDC, 1_000_000n),
        move(7, resolver, taker, CNGN, 1_580_000_000n),
        move(8, taker, localSolana.treasury, USDC, 1_000n),
        move(9, taker, localSolana.keeper, USDC, 5_000n),
      ]),
      parties,
    );
    expect(fill).toMatchObject({
      // The quote's order, as the receipt hashed its message: not the transaction's signature.
      orderHash: `0x${"ab".repeat(32)}`,
      resolver,
      sellAmount: 1_000_000n,
      outputAmount: 1_580_000_000n,
      received: 1_580_000_000n,
      fee: 1_000n,
      gasFee: 5_000n,
      logIndex: 7,
    });
  });

  it("counts a buy-token fee as part of the resolver's output", () => {
    const parties: SwapParties = {
      quoteId: "q_1",
      taker,
      sellToken: CNGN,
      buyToken: USDC,
      gasFeeToken: USDC,
      feeToken: USDC,
    };
    const fill = swapFillOf(
      localSolana,
      receipt([
        move(6, taker, resolver, CNGN, 1_580_000_000n),
        move(7, resolver, taker, USDC, 994_140n),
        move(8, resolver, localSolana.treasury, USDC, 1_000n),
        move(9, resolver, localSolana.keeper, USDC, 5_000n),
      ]),
      parties,
    );
    expect(fill).toMatchObject({
      sellAmount: 1_580_000_000n,
      outputAmount: 1_000_140n,
      received: 994_140n,
      fee: 1_000n,
    });
  });
});
