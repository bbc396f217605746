import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { solanaSigner } from "../../src/clients/resolver/keys";
import { SignRefusedError, SolanaBids } from "../../src/clients/resolver/solana-sign";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import { localSolana, swapQuote } from "../support/solana-swap";

const BLOCKHASH = "CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky";
const signer = solanaSigner(new Uint8Array(32).fill(5));
const taker = Keypair.generate().publicKey.toBase58();
const OUTPUT = 1_000_140n;
const CORRIDOR = "103:a:b";

/** An rfq the node bid OUTPUT on, and the `sign` frame for the swap that bid implies. */
function won(quoteId: string, deadline?: number) {
  const { terms, amounts } = swapQuote({
    taker,
    sell: "cNGN",
    sellAmount: 1_580_000_000n,
    outputAmount: OUTPUT,
    quoteId,
  });
  const rfq: RfqFrame = {
    type: "rfq",
    rfqId: terms.rfqId,
    quoteId: terms.quoteId,
    chainId: localSolana.chainId,
    sellToken: terms.sellToken,
    buyToken: terms.buyToken,
    sellAmount: terms.sellAmount.toString(),
    taker: terms.taker,
    recipient: terms.recipient,
    deadline: deadline ?? terms.deadline,
    fee: { token: terms.fee.token, bps: terms.fee.bps },
    gasFee: { token: terms.gasFeeToken, amount: localSolana.gasFee.fixed },
    band: null,
    toSign: { scheme: "ed25519", text: "" },
  };
  const transaction = signRequest(
    buildSwapTransaction(localSolana, terms, { resolver: signer.address, amounts }, BLOCKHASH),
  );
  return { rfq, frame: { type: "sign" as const, rfqId: rfq.rfqId, transaction } };
}

const refusal = (answer: unknown) => (answer instanceof SignRefusedError ? answer.reason : "signed");

describe("the Solana bids a node answers sign requests against", () => {
  it("signs the swap its bid implies, once", () => {
    const bids = new SolanaBids();
    const { rfq, frame } = won("q_once");
    bids.remember(CORRIDOR, rfq, OUTPUT);
    const answer = bids.sign(CORRIDOR, localSolana, signer, frame);
    if (answer instanceof SignRefusedError) throw answer;
    expect(answer).toMatchObject({ rfq, outputAmount: OUTPUT });
    const message = VersionedTransaction.deserialize(base64.decode(frame.transaction)).message.serialize();
    expect(ed25519.verify(base58.decode(answer.signature), message, base58.decode(signer.address))).toBe(true);
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, frame))).toBe(
      "this node sent no Solana bid for it on this corridor",
    );
  });

  it("refuses a request on another corridor and keeps the bid for its own", () => {
    const bids = new SolanaBids();
    const { rfq, frame } = won("q_elsewhere");
    bids.remember(CORRIDOR, rfq, OUTPUT);
    const refused = bids.sign("103:c:d", localSolana, signer, frame);
    expect(refused).toBeInstanceOf(SignRefusedError);
    expect(refused).toMatchObject({ rfqId: rfq.rfqId, reason: "this node sent no Solana bid for it on this corridor" });
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, frame))).toBe("signed");
  });

  it("refuses, consuming the bid, without a key or chain settings and for a transaction it did not bid", () => {
    const bids = new SolanaBids();
    const { rfq, frame } = won("q_refused");
    bids.remember(CORRIDOR, rfq, OUTPUT);
    expect(refusal(bids.sign(CORRIDOR, localSolana, null, frame))).toBe(
      "no Solana key or chain settings to check it with",
    );
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, frame))).toBe(
      "this node sent no Solana bid for it on this corridor",
    );
    bids.remember(CORRIDOR, rfq, OUTPUT + 1n);
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, frame))).toBe(
      "the transaction does not move exactly what was bid",
    );
  });

  it("forgets a bid at its result on its own corridor, and a bid past its deadline at the next bid", () => {
    const bids = new SolanaBids();
    const settled = won("q_settled");
    const expired = won("q_expired", Math.floor(Date.now() / 1000) - 1);
    bids.remember(CORRIDOR, settled.rfq, OUTPUT);
    bids.remember(CORRIDOR, expired.rfq, OUTPUT);
    bids.settled("103:c:d", settled.rfq.rfqId);
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, settled.frame))).toBe("signed");
    bids.remember(CORRIDOR, settled.rfq, OUTPUT);
    bids.settled(CORRIDOR, settled.rfq.rfqId);
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, settled.frame))).toBe(
      "this node sent no Solana bid for it on this corridor",
    );
    expect(refusal(bids.sign(CORRIDOR, localSolana, signer, expired.frame))).toBe(
      "this node sent no Solana bid for it on this corridor",
    );
  });
});
