import { env } from "cloudflare:test";
import { base58 } from "@scure/base";
import type { Keypair } from "@solana/web3.js";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { takerProofMessage } from "../../src/quotes/messages";
import { signText } from "../solana/bidder";
import { SMALL_ORDER_ENCODINGS, smallOrderRSignature } from "../support/ed25519-forgeries";
import { highS, vAsParity } from "../support/signature-variants";
import { EVM, SOL } from "../support/ws-client";

const app = createApp();
const taker = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbac7f7fa5c");
const body = { sellToken: EVM.cngn, buyToken: EVM.usdc, sellAmount: "1580000000", taker: taker.address };

async function proof(timestamp: number, signer = taker) {
  const signature = await signer.signMessage({
    message: takerProofMessage({ chainId: EVM.chainId, ...body, recipient: body.taker, timestamp }),
  });
  return { signature, timestamp };
}

/** A fresh proof by the taker, its signature changed by `change`. */
async function variant(change: (signature: string) => string) {
  const fresh = await proof(now());
  return { ...fresh, signature: change(fresh.signature) };
}

const ask = async (extra: Record<string, unknown>) => {
  const res = await app.request(
    "/v1/quotes",
    { method: "POST", body: JSON.stringify({ ...body, ...extra }), headers: { "content-type": "application/json" } },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const now = () => Math.floor(Date.now() / 1000);
const OTHER = privateKeyToAccount("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");

describe("requireTakerProof", () => {
  it("lets a fresh proof through to the auction (no nodes here, so no_offers)", async () => {
    const { status, body: res } = await ask({ takerProof: await proof(now()) });
    expect(status).toBe(404);
    expect(res.error).toBe("no_offers");
  });

  it("accepts a proof once: replayed within its minute, it is refused with bad_taker_proof", async () => {
    // Signing is deterministic: another second than the other tests' proofs makes another proof.
    const takerProof = await proof(now() - 2);
    expect((await ask({ takerProof })).body.error).toBe("no_offers");
    const replayed = await ask({ takerProof });
    expect(replayed).toMatchObject({ status: 400, body: { error: "bad_taker_proof" } });
    expect(String(replayed.body.message)).toContain("used already");
  });

  it("remembers a proof by its signer and signature: the same signature in upper-case hex is used already", async () => {
    const takerProof = await proof(now() - 3);
    expect((await ask({ takerProof })).body.error).toBe("no_offers");
    const shouted = { ...takerProof, signature: `0x${takerProof.signature.slice(2).toUpperCase()}` };
    const replayed = await ask({ takerProof: shouted });
    expect(replayed).toMatchObject({ status: 400, body: { error: "bad_taker_proof" } });
    expect(String(replayed.body.message)).toContain("used already");
  });

  it("remembers a proof dated ahead until its own window closes: a minute after its first use it is still used", async () => {
    const firstUse = Date.now();
    const takerProof = await proof(now() + 59);
    expect((await ask({ takerProof })).body.error).toBe("no_offers");
    // A minute and a second later the proof is still within its window (59 s ahead + 60 s).
    await new Promise((r) => setTimeout(r, firstUse + 61_000 - Date.now()));
    const replayed = await ask({ takerProof });
    expect(replayed).toMatchObject({ status: 400, body: { error: "bad_taker_proof" } });
    expect(String(replayed.body.message)).toContain("used already");
  }, 90_000);

  it.each([
    ["missing", async () => ({})],
    ["stale", async () => ({ takerProof: await proof(now() - 61) })],
    ["from the future", async () => ({ takerProof: await proof(now() + 120) })],
    [
      "forged",
      async () => ({
        takerProof: await proof(now(), OTHER),
      }),
    ],
    ["over other terms", async () => ({ takerProof: await proof(now()), sellAmount: "1580000001" })],
    // The proof names the recipient: one seen in transit cannot buy a quote that pays someone else.
    ["over another recipient", async () => ({ takerProof: await proof(now()), recipient: OTHER.address })],
    // The taker's own, in forms ecrecover refuses (docs/api.md, "Signatures").
    ["v 0/1", async () => ({ takerProof: await variant(vAsParity) })],
    ["high-s", async () => ({ takerProof: await variant(highS) })],
  ])("refuses a %s proof with bad_taker_proof", async (_what, extra) => {
    const { status, body: res } = await ask(await extra());
    expect(status).toBe(400);
    expect(res.error).toBe("bad_taker_proof");
  });
});

describe("requireTakerProof on Solana: ed25519 over the same text", () => {
  const solTaker = localSolanaKeypair("taker:5");
  const solBody = {
    chainId: SOL.chainId,
    sellToken: SOL.cngn,
    buyToken: SOL.usdc,
    sellAmount: "1580000000",
    taker: solTaker.publicKey.toBase58(),
  };
  const solProof = (signer: Keypair, timestamp = now()) => ({
    signature: signText(signer, takerProofMessage({ ...solBody, recipient: solBody.taker, timestamp })),
    timestamp,
  });

  it("lets the taker's proof through to the auction (no nodes here, so no_offers)", async () => {
    const { status, body: res } = await ask({ ...solBody, takerProof: solProof(solTaker) });
    expect([status, res.error]).toEqual([404, "no_offers"]);
  });

  it("refuses another key's proof with bad_taker_proof", async () => {
    const { status, body: res } = await ask({ ...solBody, takerProof: solProof(localSolanaKeypair("taker:6")) });
    expect([status, res.error]).toEqual([400, "bad_taker_proof"]);
  });

  it("refuses the taker's own proof with a small-order R, which the runtime would refuse, with bad_taker_proof", async () => {
    const timestamp = now();
    const text = new TextEncoder().encode(takerProofMessage({ ...solBody, recipient: solBody.taker, timestamp }));
    const forged = smallOrderRSignature(
      solTaker.secretKey.subarray(0, 32),
      text,
      SMALL_ORDER_ENCODINGS[1] as Uint8Array,
    );
    const { status, body: res } = await ask({
      ...solBody,
      takerProof: { signature: base58.encode(forged), timestamp },
    });
    expect([status, res.error]).toEqual([400, "bad_taker_proof"]);
  });
});
