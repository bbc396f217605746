import { base58 } from "@scure/base";
import type { SolanaChain } from "../../config";
import { log } from "../../log";
import { OUTPUT_AMOUNT_SLOT } from "../../protocol";
import type { ChainAdapter, QuoteSigning, RfqTerms, Winner } from "../adapter";
import { addressFacts } from "../address-rules";
import { solanaAddressRules } from "./address";
import { BlockhashKeeper, readLatestBlockhash } from "./blockhash";
import { verifyEd25519Text } from "./ed25519";
import { existingAccountsOn } from "./existing-accounts";
import { recipientAccountOf } from "./recipient-rent";
import type { SwapMaker } from "./swap-legs";
import { signRequest, verifyWinnerSignature, withSignature } from "./swap-signatures";
import { buildSwapTransaction } from "./swap-transaction";

/**
 * The price commitment a Solana bid signs (docs/resolver-protocol.md, "What a bid signs"), with the output
 * amount in place. A bid of a part (docs/legs.md) signs the whole's text with `|<sellAmount>` appended, its
 * part: seven fields where the whole's has six, so neither is ever the other's, and a part signed for
 * another amount is not this one's. `sellAmount` absent, or the rfq's own, is the whole's text.
 */
export function solanaBidText(terms: RfqTerms, outputAmount: string, sellAmount?: bigint): string {
  const whole = `relay-solana-bid|${terms.corridor}|${terms.rfqId}|${terms.quoteId}|${outputAmount}|${terms.deadline}`;
  return sellAmount === undefined || sellAmount === terms.sellAmount ? whole : `${whole}|${sellAmount}`;
}

/** Whether `signature` is the node's proved Solana key's over the bid's text with `outputAmount` (and its part). */
const verifyBid: ChainAdapter["verifyBid"] = (terms, outputAmount, keys, signature, sellAmount) =>
  keys.ed25519Key !== null &&
  verifyEd25519Text(keys.ed25519Key, signature, solanaBidText(terms, outputAmount.toString(), sellAmount));

/**
 * A Solana chain: base58 addresses compared exactly, ed25519 signatures by the node's proved Solana key,
 * and quotes the winner signs after the auction: the relay builds the swap transaction with a blockhash
 * it keeps fresh (src/chains/solana/blockhash.ts), the winner signs it, the taker signs it next.
 */
export function solanaAdapter(chain: SolanaChain): ChainAdapter {
  return {
    ...addressFacts("solana", solanaAddressRules, chain.tokens),
    chain,
    feeTokens: chain.fee.tokens,
    verifyMessage: async (signer, text, signature) => verifyEd25519Text(signer, signature, text),
    signatureKey: (signature) => base58.encode(base58.decode(signature)),
    bidKey: (keys) => keys.ed25519Key,
    quotedWinnerKey: (keys) => keys.ed25519Key,
    bidToSign: (terms) => ({ scheme: "ed25519", text: solanaBidText(terms, OUTPUT_AMOUNT_SLOT) }),
    // One transaction carries every maker's legs, each signing it (docs/legs.md, docs/settlement.md).
    parts: true,
    verifyBid,
    verifyBids: (terms, bids) => bids.map((b) => verifyBid(terms, b.outputAmount, b.keys, b.signature, b.sellAmount)),
    signing: winnerSigns(chain),
  };
}

/**
 * The winner signs the quote's swap transaction (docs/settlement.md, "Solana: the swap transaction"):
 * built with the freshest blockhash held, its every signature slot empty; the quote's `transaction` is
 * the same bytes with the winner's signature in place, and `lastValidBlockHeight` says until when it
 * can land. `createsRecipientAccount` says whether the quote's gas fee charged the rent of the recipient's
 * token account: false when the chain's memory, which the quote was just priced from, holds it as existing
 * (src/chains/solana/existing-accounts.ts); the keeper then refuses the swap if it is missing
 * (docs/security.md, "A recipient's token account closed for its rent"). A fill of several makers is one
 * transaction of every leg (`winner.legs`), which each leg's resolver signs in its own place; `legSigners`
 * keeps whose key signs which leg.
 */
function winnerSigns(chain: SolanaChain): QuoteSigning {
  const existing = existingAccountsOn(chain);
  const blockhashes = new BlockhashKeeper(
    () => readLatestBlockhash(chain.rpcUrl),
    (e) => log.error("blockhash_read_failed", { chainId: chain.chainId, error: String(e) }),
  );
  return {
    kind: "winner",
    keepFresh: (now) => blockhashes.refresh(now),
    request(terms, winner, keys, now) {
      const recent = blockhashes.current(now);
      if (!recent || keys.ed25519Key === null) return null;
      const makers = makersOf(winner);
      if (makers === null) return null;
      const resolver = keys.ed25519Key;
      const tx = buildSwapTransaction(chain, terms, { ...winner, resolver, makers }, recent.blockhash);
      const recipientAccount = recipientAccountOf(chain, terms.recipient, terms.buyToken);
      const createsRecipientAccount = recipientAccount === null || !existing.has(recipientAccount);
      const facts = {
        lastValidBlockHeight: recent.lastValidBlockHeight,
        createsRecipientAccount,
        // Whose key signs each leg: the keeper names a failed leg's resolver by it (docs/legs.md).
        ...(makers.length > 1
          ? { legSigners: (winner.legs ?? []).map((l) => ({ resolver: l.resolver, key: l.keys.ed25519Key })) }
          : {}),
      };
      return { transaction: signRequest(tx), facts };
    },
    verify: (request, keys, signature) =>
      keys.ed25519Key !== null && verifyWinnerSignature(request.transaction, keys.ed25519Key, signature),
    takerSigning(request, keys, signature, others = []) {
      let transaction = request.transaction;
      for (const signer of [{ keys, signature }, ...others]) {
        if (signer.keys.ed25519Key === null) throw new Error("a resolver of the swap proved no Solana key");
        transaction = withSignature(transaction, signer.keys.ed25519Key, signer.signature);
      }
      return { transaction, ...request.facts };
    },
  };
}

/** Each leg's maker by its proved Solana key; none for one winner; null when a leg's resolver proved no key. */
function makersOf(winner: Winner): SwapMaker[] | null {
  const makers: SwapMaker[] = [];
  for (const leg of winner.legs ?? []) {
    if (leg.keys.ed25519Key === null) return null;
    makers.push({ resolver: leg.keys.ed25519Key, sellAmount: leg.sellAmount, outputAmount: leg.outputAmount });
  }
  return makers;
}
