/**
 * `npm run bench:bid`: what one EVM bid costs the corridor, in Node on this machine (bench/README.md, "What a
 * quote and a submission cost now"): its frame read (JSON and the frame schema), and its signature check
 * (the EIP-712 digest with the rfq's `outputAmount`, then ECDSA against the node's precomputed key). The
 * bid and its keys are the test vectors of docs/resolver-protocol.md, so the check is the relay's own on a
 * real signature. `BENCH_BIDS` bids, three rounds.
 */
import { evmAdapter } from "../src/chains/evm/adapter";
import { parseNodeFrame } from "../src/protocol/codec";
import { vectorEvmChain, vectorEvmKeys, vectors, vectorTerms } from "../test/support/signing-vectors";

const BIDS = Number(process.env.BENCH_BIDS ?? 2_000);
const ROUNDS = 3;

const v = vectors;
const chain = vectorEvmChain();
const terms = vectorTerms({
  chain,
  corridor: v.auth.corridor,
  rfqId: v.rfqFill.rfqId,
  quoteId: v.rfqFill.quoteId,
  deadline: v.rfqFill.deadline,
});
const frame = JSON.stringify({
  type: "bid",
  rfqId: v.rfqFill.rfqId,
  outputAmount: v.rfqFill.outputAmount,
  signature: v.rfqFill.signature,
});

/** Microseconds per call of `f` over BIDS calls. */
function perCall(f: () => unknown): number {
  const start = performance.now();
  for (let i = 0; i < BIDS; i++) f();
  return ((performance.now() - start) * 1000) / BIDS;
}

async function main() {
  const keys = await vectorEvmKeys();
  const adapter = evmAdapter(chain);
  const output = BigInt(v.rfqFill.outputAmount);
  if (!adapter.verifyBid(terms, output, keys, v.rfqFill.signature)) throw new Error("the vector's bid does not verify");
  const parse = () => parseNodeFrame(frame);
  const check = () => adapter.verifyBid(terms, output, keys, v.rfqFill.signature);
  perCall(parse);
  perCall(check);
  for (let round = 1; round <= ROUNDS; round++) {
    const read = perCall(parse);
    const verified = perCall(check);
    console.log(
      `round ${round}, ${BIDS} bids: frame read ${read.toFixed(1)} µs, signature check ${verified.toFixed(1)} µs, ` +
        `a bid ${(read + verified).toFixed(1)} µs`,
    );
  }
}

await main();
