import type { SolanaChain } from "../../config/schema";
import { OUTPUT_AMOUNT_SLOT } from "../../protocol/frames";
import type { ChainAdapter, RfqTerms } from "../adapter";
import { addressFacts } from "../addresses";
import { verifyEd25519Text } from "./ed25519";

/** The price commitment a Solana bid signs (docs/resolver-protocol.md), with the output amount in place. */
export function solanaBidText(terms: RfqTerms, outputAmount: string): string {
  return `relay-solana-bid|${terms.corridor}|${terms.rfqId}|${terms.quoteId}|${outputAmount}|${terms.deadline}`;
}

/**
 * A Solana chain: base58 addresses compared exactly, ed25519 signatures by the node's proved Solana key.
 * Quotes are not served until the relay builds Solana settlement transactions (docs/api.md), so
 * `takerSigning` is null and the quote route answers `unsupported_pair`.
 */
export function solanaAdapter(chain: SolanaChain): ChainAdapter {
  return {
    ...addressFacts("solana", chain.tokens),
    chain,
    verifyMessage: async (signer, text, signature) => verifyEd25519Text(signer, signature, text),
    bidKey: (keys) => keys.solanaAddress,
    bidToSign: (terms) => ({ scheme: "ed25519", text: solanaBidText(terms, OUTPUT_AMOUNT_SLOT) }),
    verifyBid: (terms, outputAmount, keys, signature) =>
      keys.solanaAddress !== null &&
      verifyEd25519Text(keys.solanaAddress, signature, solanaBidText(terms, outputAmount.toString())),
    takerSigning: null,
  };
}
