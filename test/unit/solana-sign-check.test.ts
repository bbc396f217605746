import { base64 } from "@scure/base";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { checkSignRequest } from "../../src/clients/resolver/solana-sign";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import { localSolana, swapQuote } from "../support/solana-swap";

const BLOCKHASH = "CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky";
const resolver = Keypair.generate().publicKey.toBase58();
const taker = Keypair.generate().publicKey.toBase58();
const OUTPUT = 1_000_140n;

/** A quote as the relay makes it, the rfq its resolvers saw, and the `sign` request for `outputAmount`. */
function scenario(outputAmount = OUTPUT, sell: "cNGN" | "USDC" = "cNGN") {
  const sellAmount = sell === "cNGN" ? 1_580_000_000n : 1_000_000n;
  const { terms, amounts } = swapQuote({ taker, sell, sellAmount, outputAmount });
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
    deadline: terms.deadline,
    fee: { token: terms.fee.token, bps: terms.fee.bps },
    gasFee: { token: terms.gasFeeToken, amount: localSolana.gasFee.fixed },
    band: null,
    toSign: { scheme: "ed25519", text: "" },
  };
  const request = signRequest(buildSwapTransaction(localSolana, terms, { resolver, amounts }, BLOCKHASH));
  return { rfq, request, terms, amounts };
}

describe("a resolver's check of a Solana sign request", () => {
  it("accepts the swap its bid implies, and gives the message to sign", () => {
    const { rfq, request } = scenario();
    const check = checkSignRequest(localSolana, rfq, { resolver, outputAmount: OUTPUT }, request);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.message).toEqual(VersionedTransaction.deserialize(base64.decode(request)).message.serialize());
    }
  });

  it("builds the fee from the rfq's fee token: from the taker when it is the sell token", () => {
    // Selling USDC, the first of the local chain's fee tokens: the rfq names it, and the fee is the taker's.
    const { rfq, request, terms } = scenario(1_580_000_000n, "USDC");
    expect(rfq.fee.token).toBe(terms.sellToken);
    const bid = { resolver, outputAmount: 1_580_000_000n };
    expect(checkSignRequest(localSolana, rfq, bid, request).ok).toBe(true);
    // Told the fee is in the buy token, the node expects another swap, and refuses this one.
    const claimed = { ...rfq, fee: { ...rfq.fee, token: terms.buyToken } };
    expect(checkSignRequest(localSolana, claimed, bid, request)).toEqual({
      ok: false,
      reason: "the transaction does not move exactly what was bid",
    });
  });

  it("refuses a transaction that moves more of its output than it bid", () => {
    const { rfq } = scenario();
    const { request } = scenario(OUTPUT + 1n);
    expect(checkSignRequest(localSolana, rfq, { resolver, outputAmount: OUTPUT }, request)).toEqual({
      ok: false,
      reason: "the transaction does not move exactly what was bid",
    });
  });

  it("refuses a changed byte in the message, another payee, and garbage", () => {
    const { rfq, request, terms, amounts } = scenario();
    const bytes = base64.decode(request);
    // Past the three empty signature slots (1 + 3 × 64 bytes): an account key, an instruction, the memo.
    for (const at of [200, bytes.length - 40, bytes.length - 1]) {
      const changed = bytes.slice();
      changed[at] = (changed[at] ?? 0) ^ 1;
      expect(checkSignRequest(localSolana, rfq, { resolver, outputAmount: OUTPUT }, base64.encode(changed)).ok).toBe(
        false,
      );
    }
    const elsewhere = signRequest(
      buildSwapTransaction(
        localSolana,
        { ...terms, recipient: Keypair.generate().publicKey.toBase58() },
        { resolver, amounts },
        BLOCKHASH,
      ),
    );
    expect(checkSignRequest(localSolana, rfq, { resolver, outputAmount: OUTPUT }, elsewhere).ok).toBe(false);
    expect(checkSignRequest(localSolana, rfq, { resolver, outputAmount: OUTPUT }, "not base64!")).toEqual({
      ok: false,
      reason: "not a Solana transaction",
    });
  });
});
