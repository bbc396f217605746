import { env } from "cloudflare:test";
import type { Address, Hex, LocalAccount } from "viem";
import { describe, expect, it } from "vitest";
import type { LimitOrder, LimitOrderDraft } from "../../src/schemas/limit-order";
import { app, EVM, signQuote } from "./helpers";
import { delegatedTaker, digestOf, ownerWallet, signAsAccount, signAsOwner } from "./smart-wallets";

/**
 * Limit orders of takers whose addresses have code (docs/limit-orders.md, "Placing"): placing one asks the
 * taker's code, as Permit2 will when the order fills, on anvil with the project's contracts.
 */

async function call<T = Record<string, unknown>>(method: string, path: string, body: unknown) {
  const res = await app.request(
    path,
    { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    env,
  );
  return { status: res.status, body: (await res.json()) as T };
}

async function prepare(taker: Address): Promise<LimitOrderDraft> {
  const res = await call<LimitOrderDraft>("POST", "/v1/limit-orders/prepare", {
    sellToken: EVM.cngn,
    buyToken: EVM.usdc,
    sellAmount: "1580000000",
    limitAmount: "1000000",
    taker,
    expiresInSeconds: 7 * 86_400,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const place = (draft: LimitOrderDraft, signature: Hex) =>
  call<LimitOrder & Record<string, unknown>>("POST", "/v1/limit-orders", { draft, signature });

const draftDigest = (draft: LimitOrderDraft) => digestOf(draft.typedData as unknown as Record<string, unknown>);

/** The key's plain signature over the draft's typed data, as an EOA signs it. */
const keySigned = (key: LocalAccount, draft: LimitOrderDraft) =>
  signQuote(key, draft.typedData as unknown as Record<string, unknown>);

describe("placing a limit order for a smart-contract wallet (ERC-1271, in the manner of a Safe)", () => {
  it("takes the owner's signature the wallet's code accepts, and refuses 400 one it refuses", async () => {
    const { owner, wallet } = await ownerWallet();
    const draft = await prepare(wallet);
    const refused = await place(draft, await keySigned(owner, draft));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: "bad_signature",
      field: "signature",
      message: expect.stringMatching(/has code.*isValidSignature \(ERC-1271\) refuses/),
    });
    const placed = await place(draft, await signAsOwner(owner, wallet, draftDigest(draft)));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.status).toBe("open");
    expect(String(placed.body.taker).toLowerCase()).toBe(wallet.toLowerCase());
  });
});

describe("placing a limit order for an EOA delegated by EIP-7702", () => {
  it("takes the signature its delegate accepts, and refuses the key's plain one, which Permit2 would refuse", async () => {
    const account = await delegatedTaker();
    const draft = await prepare(account.address);
    const refused = await place(draft, await keySigned(account, draft));
    expect([refused.status, refused.body.error]).toEqual([400, "bad_signature"]);
    const placed = await place(draft, await signAsAccount(account, draftDigest(draft)));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  });
});
