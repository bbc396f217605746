import { env } from "cloudflare:test";
import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { afterEach, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { SolanaRpcError, solanaRpc } from "../../src/chains/solana/rpc";
import { OUTPUT_AMOUNT_SLOT, type RfqFrame } from "../../src/protocol/relay-frames";
import { SMALL_ORDER_ENCODINGS, smallOrderRSignature } from "../support/ed25519-forgeries";
import { SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, solanaBidder } from "./bidder";

/**
 * ed25519 signatures the Solana runtime refuses and a cofactored check accepts (docs/api.md,
 * "Signatures"): a winner's `signed` and a bid commitment whose R is a small-order point. The relay
 * refuses them as the runtime, LiteSVM here, refuses the transaction that carries one.
 */

const app = createApp();
const taker = localSolanaKeypair("taker:5");
const keeper = localSolanaKeypair("keeper");
/** An order-8 point: R = T and s = k·a satisfy [8][s]B = [8](R + [k]A) for the key A = [a]B. */
const TORSION_R = SMALL_ORDER_ENCODINGS[1] as Uint8Array;

const requestQuote = async () => {
  const body = {
    chainId: SOL.chainId,
    sellToken: SOL.cngn,
    buyToken: SOL.usdc,
    sellAmount: await marketSellAmount(app),
    taker: taker.publicKey.toBase58(),
  };
  const res = await app.request(
    "/v1/quotes",
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const messageOf = (transaction: string) =>
  VersionedTransaction.deserialize(base64.decode(transaction)).message.serialize();

/** A signature by `keypair` over `message` whose R is a small-order point. */
const forged = (keypair: Keypair, message: Uint8Array) =>
  smallOrderRSignature(keypair.secretKey.subarray(0, 32), message, TORSION_R);

/** The cofactored check of RFC 8032, with canonical encodings: what noble's `verify` says. */
const cofactored = (signature: Uint8Array, message: Uint8Array, keypair: Keypair) =>
  ed25519.verify(signature, message, keypair.publicKey.toBytes(), { zip215: false });

/** Sends to the local chain itself (not through the relay's proxy); the signature it answers, or its error. */
async function send(transaction: string, skipPreflight: boolean): Promise<string | SolanaRpcError> {
  try {
    return await solanaRpc<string>(env.TEST_SOLANA_RPC_URL, "sendTransaction", [
      transaction,
      { encoding: "base64", skipPreflight },
    ]);
  } catch (e) {
    if (e instanceof SolanaRpcError) return e;
    throw e;
  }
}

/** The transaction of a `sign` frame with the local chain's latest blockhash in place of the relay's. */
async function withFreshBlockhash(transaction: string): Promise<VersionedTransaction> {
  const { value } = await solanaRpc<{ value: { blockhash: string } }>(env.TEST_SOLANA_RPC_URL, "getLatestBlockhash", [
    { commitment: "processed" },
  ]);
  const tx = VersionedTransaction.deserialize(base64.decode(transaction));
  tx.message.recentBlockhash = value.blockhash;
  return tx;
}

/** The transaction with each signer's signature (by base58 key) in its slot, base64. */
function signed(tx: VersionedTransaction, signatures: Record<string, Uint8Array>): string {
  const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
  for (const [key, signature] of Object.entries(signatures)) tx.signatures[keys.indexOf(key)] = signature;
  return base64.encode(tx.serialize());
}

const landed = async (signature: string) => {
  const { value } = await solanaRpc<{ value: (object | null)[] }>(env.TEST_SOLANA_RPC_URL, "getSignatureStatuses", [
    [signature],
  ]);
  return value[0] !== null;
};

describe("ed25519 signatures with a small-order R", () => {
  const nodes: SolanaBidder[] = [];
  afterEach(() => {
    for (const n of nodes.splice(0)) n.socket.close();
  });

  it("a winner's signed with one is refused, as the runtime refuses the swap carrying it", async () => {
    const alpha = await solanaBidder(0, "alpha");
    const beta = await solanaBidder(1, "beta");
    nodes.push(alpha, beta);
    const pending = requestQuote();
    const [ra, rb] = await Promise.all([alpha.nextRfq(), beta.nextRfq()]);
    alpha.bid(ra, 1_010_000n);
    beta.bid(rb, 1_000_000n);
    const sign = await alpha.nextSign();
    const message = messageOf(sign.transaction);
    const signature = forged(alpha.keypair, message);
    expect(cofactored(signature, message, alpha.keypair)).toBe(true);
    alpha.socket.send({ type: "signed", rfqId: sign.rfqId, signature: base58.encode(signature) });

    // The relay passes the win to the next bid, which signs honestly.
    beta.sign(await beta.nextSign());
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver).toMatchObject({ name: "beta", solanaAddress: beta.keypair.publicKey.toBase58() });

    // The swap alpha was asked to sign (with a blockhash of the chain's now), every slot signed: with the
    // forged signature LiteSVM's own check drops it, and the local chain's preflight answers -32003 as a
    // validator's does; with alpha's own signature it lands.
    const swap = await withFreshBlockhash(sign.transaction);
    const swapMessage = swap.message.serialize();
    const signedWith = (alphaSignature: Uint8Array) =>
      signed(swap, {
        [alpha.keypair.publicKey.toBase58()]: alphaSignature,
        [taker.publicKey.toBase58()]: ed25519.sign(swapMessage, taker.secretKey.subarray(0, 32)),
        [keeper.publicKey.toBase58()]: ed25519.sign(swapMessage, keeper.secretKey.subarray(0, 32)),
      });
    const refused = signedWith(forged(alpha.keypair, swapMessage));
    const dropped = await send(refused, true);
    if (typeof dropped !== "string") throw dropped;
    expect(await landed(dropped)).toBe(false);
    expect(await send(refused, false)).toMatchObject({ code: -32003 });
    const honest = await send(signedWith(ed25519.sign(swapMessage, alpha.keypair.secretKey.subarray(0, 32))), true);
    if (typeof honest !== "string") throw honest;
    expect(await landed(honest)).toBe(true);
  });

  it("a bid committed with one is rejected with bad_signature, and the honest bid wins", async () => {
    // Not node 0: a winner that signs nothing the relay accepts is struck.
    const mallory = await solanaBidder(2, "mallory");
    const honest = await solanaBidder(3, "honest");
    nodes.push(mallory, honest);
    const pending = requestQuote();
    const [rm, rh] = await Promise.all([mallory.nextRfq(), honest.nextRfq()]);
    const commitment = (rfq: RfqFrame) =>
      new TextEncoder().encode(
        rfq.toSign.scheme === "ed25519" ? rfq.toSign.text.replace(OUTPUT_AMOUNT_SLOT, "1010000") : "",
      );
    const signature = forged(mallory.keypair, commitment(rm));
    expect(cofactored(signature, commitment(rm), mallory.keypair)).toBe(true);
    mallory.socket.send({ type: "bid", rfqId: rm.rfqId, outputAmount: "1010000", signature: base58.encode(signature) });
    honest.bid(rh, 1_000_000n);
    honest.sign(await honest.nextSign());
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver).toMatchObject({ name: "honest" });
    expect(body.replies).toMatchObject({ valid: 1, rejected: 1 });
    expect(await mallory.socket.next("error")).toMatchObject({ code: "bad_signature" });
  });
});
