/**
 * What one EVM bid costs the corridor, measured the same way in Node and in workerd (`npm run bench:bid`,
 * bench/bid-cost.ts): its frame read (JSON and the frame schema); its signature check alone, as the
 * winner's is on the quote's path; and the checks of an auction's bids together, as the others' are after
 * the answer (docs/resolver-protocol.md, "When signatures are checked"). The bid and its keys are the test
 * vectors of docs/resolver-protocol.md, so the check is the relay's own on a real signature; the auction's
 * other bids are by keys of its own, over the same rfq.
 */
import { privateKeyToAccount } from "viem/accounts";
import type { SignedBid } from "../src/chains/adapter";
import { evmAdapter } from "../src/chains/evm/adapter";
import { parseNodeFrame } from "../src/protocol/codec";
import { vectorEvmChain, vectorEvmKeys, vectors, vectorTerms } from "../test/support/signing-vectors";

/** The bids of one auction checked together: a corridor's resolvers at the benchmarks' largest fleet. */
export const AUCTION_BIDS = 20;

export interface BidCosts {
  /** Microseconds a bid, each figure over `bids` bids. */
  frameRead: number;
  checkAlone: number;
  checkInAuction: number;
  bids: number;
}

/**
 * Microseconds per call of `f` over `calls` calls. The clock is read across a timer's turn: workerd moves
 * it only between tasks.
 */
async function perCall(calls: number, f: () => unknown): Promise<number> {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  await turn();
  const start = Date.now();
  for (let i = 0; i < calls; i++) f();
  await turn();
  return ((Date.now() - start) * 1000) / calls;
}

export async function bidCosts(bids: number): Promise<BidCosts> {
  const v = vectors;
  const chain = vectorEvmChain();
  const terms = vectorTerms({
    chain,
    corridor: v.auth.corridor,
    rfqId: v.rfqFill.rfqId,
    quoteId: v.rfqFill.quoteId,
    deadline: v.rfqFill.deadline,
  });
  const adapter = evmAdapter(chain);
  const vector: SignedBid = {
    outputAmount: BigInt(v.rfqFill.outputAmount),
    keys: await vectorEvmKeys(),
    signature: v.rfqFill.signature,
  };
  const toSign = adapter.bidToSign(terms);
  if (toSign.scheme !== "eip712") throw new Error("an EVM bid signs EIP-712");
  const auction: SignedBid[] = [vector];
  for (let i = 1; i < AUCTION_BIDS; i++) {
    const account = privateKeyToAccount(`0x${(i + 1).toString(16).padStart(64, "0")}`);
    const outputAmount = vector.outputAmount - BigInt(i);
    const signature = await account.signTypedData({
      ...toSign,
      message: { ...toSign.message, outputAmount },
    } as Parameters<typeof account.signTypedData>[0]);
    const keys = { address: account.address, publicKey: account.publicKey, ed25519Key: null };
    auction.push({ outputAmount, keys, signature });
  }
  if (!adapter.verifyBids(terms, auction).every(Boolean)) throw new Error("a bid of the auction does not verify");
  const frame = JSON.stringify({
    type: "bid",
    rfqId: v.rfqFill.rfqId,
    outputAmount: v.rfqFill.outputAmount,
    signature: v.rfqFill.signature,
  });
  const read = () => parseNodeFrame(frame);
  const alone = () => adapter.verifyBid(terms, vector.outputAmount, vector.keys, vector.signature);
  const together = () => adapter.verifyBids(terms, auction);
  // Warm: the key tables are built, and the functions compiled.
  await perCall(200, read);
  await perCall(200, alone);
  await perCall(10, together);
  return {
    frameRead: await perCall(bids, read),
    checkAlone: await perCall(bids, alone),
    checkInAuction: (await perCall(Math.ceil(bids / AUCTION_BIDS), together)) / AUCTION_BIDS,
    bids,
  };
}
