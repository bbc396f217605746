import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import {
  ComputeBudgetProgram,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import type { SolanaChain } from "../../config";
import type { QuoteAmounts } from "../../types";
import type { RfqTerms } from "../adapter";
import { makerLegs, type SwapLeg, type SwapMaker, swapLegs } from "./swap-legs";

/** The SPL Memo program (v2): its instruction logs its UTF-8 data, here the quote id. */
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";

/** The largest serialized transaction a Solana node accepts (one IPv6 MTU less headers). */
export const MAX_TRANSACTION_BYTES = 1232;

/** The signatures a swap of one maker carries: the keeper's (fee payer), the taker's and the resolver's; each further maker adds its own. */
export const SWAP_SIGNATURES = 3;

type SolanaToken = SolanaChain["tokens"][number];

function tokenOf(chain: SolanaChain, address: string): SolanaToken {
  const token = chain.tokens.find((t) => t.address === address);
  if (!token) throw new Error(`${address} is not a token of ${chain.name}`);
  return token;
}

/** The associated token account of `owner` for `token` (owners off the curve, such as a PDA treasury, allowed). */
export function tokenAccount(token: SolanaToken, owner: string): PublicKey {
  return getAssociatedTokenAddressSync(
    new PublicKey(token.address),
    new PublicKey(owner),
    true,
    new PublicKey(token.tokenProgram),
  );
}

/**
 * The destination account of every leg, created if it is missing (idempotently, so an account that
 * exists costs nothing but compute): the resolver's sell-token account, the recipient's buy-token
 * account, the treasury's fee account and the keeper's gas-fee account. Each account once, in the legs'
 * order. The keeper pays the rent of each, which the quote prices (`swapDestinations`), except the
 * resolver's own, which `resolver` pays: it is not priced, and a resolver must hold its corridor's
 * accounts to be asked, so its account is missing only when it closed it after its inventory read, and
 * the keeper never pays its rent (docs/security.md, "A token account closed for its rent").
 */
function createDestinations(
  chain: SolanaChain,
  legs: SwapLeg[],
  resolvers: ReadonlySet<string>,
): TransactionInstruction[] {
  const seen = new Set<string>();
  const instructions: TransactionInstruction[] = [];
  for (const leg of legs) {
    const token = tokenOf(chain, leg.token);
    const account = tokenAccount(token, leg.to);
    if (seen.has(account.toBase58())) continue;
    seen.add(account.toBase58());
    instructions.push(
      createAssociatedTokenAccountIdempotentInstruction(
        new PublicKey(resolvers.has(leg.to) ? leg.to : chain.keeper),
        account,
        new PublicKey(leg.to),
        new PublicKey(token.address),
        new PublicKey(token.tokenProgram),
      ),
    );
  }
  return instructions;
}

function transfer(chain: SolanaChain, leg: SwapLeg): TransactionInstruction {
  const token = tokenOf(chain, leg.token);
  return createTransferCheckedInstruction(
    tokenAccount(token, leg.from),
    new PublicKey(token.address),
    tokenAccount(token, leg.to),
    new PublicKey(leg.from),
    leg.amount,
    token.decimals,
    [],
    new PublicKey(token.tokenProgram),
  );
}

function memo(quoteId: string): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(MEMO_PROGRAM),
    keys: [],
    data: Buffer.from(quoteId, "utf8"),
  });
}

/**
 * A quote's settlement on Solana (docs/settlement.md, "Solana: the swap transaction"): one v0
 * transaction, fee payer the chain's keeper, signed by the keeper, the taker and the resolver, that
 * 1. sets the compute budget (`computeUnitLimit`, `computeUnitPrice`),
 * 2. creates the legs' destination token accounts where missing (paid by the keeper, the resolver's own
 *    by the resolver),
 * 3. moves each leg of `swapLegs` with `TransferChecked` (mint and decimals checked on chain),
 * 4. logs the quote id with a Memo instruction.
 *
 * `winner.resolver` is the winner's proved Solana key. A fill of several makers (`winner.makers`, two or
 * more, docs/legs.md) moves each maker's legs in turn (`makerLegs`), and each maker signs: its key is a
 * signer of the transfers out of its accounts, and pays for its own account's creation. The result carries
 * no signatures (every slot zero); `signRequest` is what each resolver signs. Throws when a token is not one of the chain's or the
 * amounts do not add up (`swapLegs`), or when the transaction would not fit in a packet.
 *
 * The memo program tags the order whatever the chain's `program` names: no order-engine program is
 * deployed, so no other tagging instruction is known yet.
 */
export function buildSwapTransaction(
  chain: SolanaChain,
  terms: RfqTerms,
  winner: { resolver: string; amounts: QuoteAmounts; makers?: readonly SwapMaker[] },
  recentBlockhash: string,
): VersionedTransaction {
  const parties = {
    taker: terms.taker,
    recipient: terms.recipient,
    treasury: chain.treasury,
    keeper: chain.keeper,
    sellToken: terms.sellToken,
    buyToken: terms.buyToken,
    sellAmount: terms.sellAmount,
    gasFeeToken: terms.gasFeeToken,
    feeToken: terms.fee.token,
  };
  const makers = winner.makers && winner.makers.length > 1 ? winner.makers : null;
  const legs = makers
    ? makerLegs(parties, winner.amounts, makers, terms.fee.bps)
    : swapLegs({ ...parties, resolver: winner.resolver }, winner.amounts);
  const resolvers = new Set(makers ? makers.map((m) => m.resolver) : [winner.resolver]);
  const instructions = [
    ComputeBudgetProgram.setComputeUnitLimit({ units: chain.computeUnitLimit }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: BigInt(chain.computeUnitPrice) }),
    ...createDestinations(chain, legs, resolvers),
    ...legs.map((leg) => transfer(chain, leg)),
    memo(terms.quoteId),
  ];
  const message = new TransactionMessage({
    payerKey: new PublicKey(chain.keeper),
    recentBlockhash,
    instructions,
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  const size = tx.serialize().length;
  if (size > MAX_TRANSACTION_BYTES) throw new Error(`the swap transaction is ${size} bytes, over the packet limit`);
  return tx;
}
