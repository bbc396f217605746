import { VersionedTransaction } from "@solana/web3.js";
import { swapCreations } from "../../chains/solana/swap-creations";
import { MEMO_PROGRAM, tokenAccount } from "../../chains/solana/swap-transaction";
import { swapTransfers } from "../../chains/solana/swap-transfers";
import { messageBytes, readWireBase64 } from "../../chains/solana/wire";
import type { SolanaChain } from "../../config/schema";
import type { RfqFrame } from "../../protocol/relay-frames";

export type LegCheck = { ok: true; message: Uint8Array } | { ok: false; reason: string };

/**
 * Whether the transaction a `sign` asks this node to sign for its part (docs/legs.md) moves exactly its
 * leg: the node cannot rebuild the whole swap, whose other legs are other makers' bids, so it reads its own
 * leg out of it instead. Its key must be a signer; the one transfer into its sell-token account must be the
 * taker's, of exactly its part; the transfers out of its accounts must be of the buy token, to the
 * recipient, the treasury and the keeper only, summing to exactly the output it bid, the treasury's its
 * protocol fee; and no other instruction may name its key but the creation of its own sell-token account.
 * The fee payer must be the chain's keeper, and the memo the quote's id.
 */
export function checkLegSignRequest(
  chain: SolanaChain,
  rfq: RfqFrame,
  bid: { resolver: string; sellAmount: bigint; outputAmount: bigint },
  transaction: string,
): LegCheck {
  const wire = readWireBase64(transaction);
  if (!wire) return { ok: false, reason: "not a Solana transaction" };
  const message = VersionedTransaction.deserialize(wire.bytes).message;
  if (message.addressTableLookups.length > 0) return { ok: false, reason: "a swap loads no lookup table" };
  const keys = message.staticAccountKeys.map((k) => k.toBase58());
  const me = bid.resolver;
  if (keys[0] !== chain.keeper || !wire.signers.includes(me)) {
    return { ok: false, reason: "not a swap the keeper pays for and this node signs" };
  }
  const sold = chain.tokens.find((t) => t.address === rfq.sellToken);
  const bought = chain.tokens.find((t) => t.address === rfq.buyToken);
  if (!sold || !bought || rfq.fee.token !== bought.address || rfq.gasFee.token !== bought.address) {
    return { ok: false, reason: "a part is taken only with both fees in the buy token" };
  }
  const account = (token: typeof sold, owner: string) => tokenAccount(token, owner).toBase58();
  const mySold = account(sold, me);
  const myBought = account(bought, me);
  const payees = new Set([
    account(bought, rfq.recipient),
    account(bought, chain.treasury),
    account(bought, chain.keeper),
  ]);
  const transfers = swapTransfers(message, keys);
  const creations = swapCreations(message, keys);

  const intoMine = transfers.filter((t) => t.destination === mySold || t.destination === myBought);
  const sale = intoMine[0];
  const saleOk =
    intoMine.length === 1 &&
    sale !== undefined &&
    sale.destination === mySold &&
    sale.from === rfq.taker &&
    sale.source === account(sold, rfq.taker) &&
    sale.amount === bid.sellAmount;
  if (!saleOk) return { ok: false, reason: "the taker does not pay this node exactly its part" };

  const outOfMine = transfers.filter((t) => t.from === me);
  const fee = (bid.outputAmount * BigInt(rfq.fee.bps)) / 10_000n;
  const toTreasury = outOfMine.filter((t) => t.destination === account(bought, chain.treasury));
  const paid = outOfMine.reduce((sum, t) => sum + t.amount, 0n);
  const outOk =
    outOfMine.every((t) => t.source === myBought && t.mint === bought.address && payees.has(t.destination)) &&
    paid === bid.outputAmount &&
    toTreasury.reduce((sum, t) => sum + t.amount, 0n) === fee;
  if (!outOk) return { ok: false, reason: "the transaction does not pay out exactly the output bid" };

  // Nothing else may name this node's key: no other transfer, creation or program call it would sign.
  const meAt = keys.indexOf(me);
  const allowed = new Set([
    ...outOfMine.map((t) => t.index),
    ...creations.filter((c) => c.payer === me && c.owner === me && c.account === mySold).map((c) => c.index),
  ]);
  const stray = message.compiledInstructions.some((ix, i) => ix.accountKeyIndexes.includes(meAt) && !allowed.has(i));
  if (stray) return { ok: false, reason: "the transaction names this node's key beyond its leg" };
  const memo = message.compiledInstructions.some(
    (ix) => keys[ix.programIdIndex] === MEMO_PROGRAM && new TextDecoder().decode(ix.data) === rfq.quoteId,
  );
  if (!memo) return { ok: false, reason: "the transaction does not name the quote" };
  return { ok: true, message: messageBytes(wire) };
}
