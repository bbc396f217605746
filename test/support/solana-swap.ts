import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { quoteAmounts } from "../../src/auction/amounts";
import type { RfqTerms } from "../../src/chains/adapter";
import { corridorKey } from "../../src/chains/corridor-keys";
import { feeChargeFor, gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import type { SolanaChain } from "../../src/config/schema";
import type { QuoteAmounts } from "../../src/types";

/** The local configuration's Solana chain (chain 103, the LiteSVM harness). */
export const localSolana = localConfig.chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;

export function mintOf(chain: SolanaChain, symbol: string): string {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no ${symbol} on ${chain.name}`);
  return token.address;
}

export interface SwapQuote {
  terms: RfqTerms;
  amounts: QuoteAmounts;
}

/**
 * A quote's terms and amounts as the auction makes them: the gas charge from `gasChargeFor`, the fee
 * charge from `feeChargeFor` (the chain's `fee.tokens`) and the money from `quoteAmounts`
 * (src/auction/amounts.ts), for `sellAmount` of `sell` bought for `outputAmount`.
 */
export function swapQuote(args: {
  chain?: SolanaChain;
  taker: string;
  recipient?: string;
  sell: "USDC" | "cNGN";
  sellAmount: bigint;
  outputAmount: bigint;
  quoteId?: string;
}): SwapQuote {
  const chain = args.chain ?? localSolana;
  const sellToken = mintOf(chain, args.sell);
  const buyToken = mintOf(chain, args.sell === "USDC" ? "cNGN" : "USDC");
  const same = (a: string, b: string) => a === b;
  const gas = gasChargeFor(chain.gasFee, sellToken, buyToken, same);
  const fee = feeChargeFor(chain.fee, sellToken, buyToken, same);
  const amounts = quoteAmounts({ sellAmount: args.sellAmount, outputAmount: args.outputAmount, fee, gas });
  if (!amounts) throw new Error("the output does not cover the fees");
  const quoteId = args.quoteId ?? "q_test";
  return {
    amounts,
    terms: {
      corridor: corridorKey(chain.chainId, sellToken, buyToken),
      rfqId: `rfq_${quoteId}`,
      quoteId,
      chain,
      taker: args.taker,
      recipient: args.recipient ?? args.taker,
      sellToken,
      buyToken,
      sellAmount: args.sellAmount,
      deadline: Math.floor(Date.now() / 1000) + 90,
      gasFeeToken: gas.token,
      fee,
    },
  };
}

/** `keypair`'s base58 ed25519 signature over the message of the serialized transaction `txBase64`. */
export function signMessageOf(txBase64: string, keypair: Keypair): string {
  const tx = VersionedTransaction.deserialize(base64.decode(txBase64));
  return base58.encode(ed25519.sign(tx.message.serialize(), keypair.secretKey.subarray(0, 32)));
}

/** The transaction `txBase64` with `signers` added in their slots, as a wallet would sign it. */
export function addSignatures(txBase64: string, ...signers: Keypair[]): string {
  const tx = VersionedTransaction.deserialize(base64.decode(txBase64));
  tx.sign(signers);
  return base64.encode(tx.serialize());
}
