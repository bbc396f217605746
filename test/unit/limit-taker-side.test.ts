import { type Address, hashDomain, parseSignature } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { takerSideOf } from "../../src/chains/evm/limit-orders";
import type { TakerSideFunds } from "../../src/chains/evm/limit-reads";
import { permitGrant } from "../../src/chains/evm/permit-grant";
import { ERC2612_PERMIT_TYPES } from "../../src/chains/evm/typed-data";
import type { TakerSideQuery } from "../../src/chains/limit-orders";
import type { Erc2612Permit } from "../../src/schemas";

/**
 * An order's taker side from its reads (src/chains/evm/limit-orders.ts `takerSideOf`, docs/limit-orders.md
 * "The keeper's job"), and what its EIP-2612 permit can still grant (src/chains/evm/permit-grant.ts).
 */
const owner = privateKeyToAccount(`0x${"42".repeat(32)}`);
const permit2: Address = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
const token: Address = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const domain = { name: "Test cNGN", version: "1", chainId: 31337, verifyingContract: token } as const;
const domainSeparator = hashDomain({
  domain: { ...domain, chainId: BigInt(domain.chainId) },
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
  },
});
const NOW = 1_800_000_000;

/** The owner's permit of Permit2 for `value`, signed for the token's nonce `nonce`. */
async function permitFor(nonce: bigint, deadline = NOW + 3_600, value = 10n ** 30n): Promise<Erc2612Permit> {
  const signature = await owner.signTypedData({
    domain,
    types: ERC2612_PERMIT_TYPES,
    primaryType: "Permit",
    message: { owner: owner.address, spender: permit2, value, nonce, deadline: BigInt(deadline) },
  });
  const { r, s, yParity } = parseSignature(signature);
  return { value: value.toString(), deadline: String(deadline), v: yParity + 27, r, s };
}

const grant = (permit: Erc2612Permit, nonce: bigint, nowSeconds = NOW) =>
  permitGrant({ permit, owner: owner.address, spender: permit2, nonce, domainSeparator, nowSeconds });

describe("what an order's EIP-2612 permit can still grant", () => {
  it("grants while the token's nonce of the owner is the one it was signed for", async () => {
    expect(grant(await permitFor(3n), 3n)).toBe("grants");
  });

  it("grants nothing once that nonce is used (the token's nonce moved on)", async () => {
    expect(grant(await permitFor(3n), 4n)).toBe("permit_spent");
  });

  it("grants nothing past its deadline", async () => {
    expect(grant(await permitFor(3n, NOW - 1), 3n)).toBe("permit_expired");
  });
});

describe("an order's taker side from its reads", () => {
  const amount = 1_000n;
  const order = (over: Partial<TakerSideQuery> = {}): TakerSideQuery => ({
    taker: owner.address,
    token,
    amount,
    nonce: 5n,
    erc2612: null,
    recipient: null,
    ...over,
  });
  const read = (over: Partial<TakerSideFunds> = {}): TakerSideFunds => ({
    balance: amount,
    permit2Allowance: amount,
    bitmap: 0n,
    permit: null,
    recipientAccepts: null,
    ...over,
  });
  const side = (q: TakerSideQuery, r: TakerSideFunds) => takerSideOf(q, r, { permit2, nowSeconds: NOW });

  it("is whole with the balance and Permit2's allowance", () => {
    expect(side(order(), read())).toEqual({ kind: "whole" });
  });

  it("is revoked with its nonce spent, before anything else", () => {
    expect(side(order(), read({ bitmap: 1n << 5n, balance: 0n }))).toEqual({ kind: "revoked" });
  });

  it("is short of balance, then of allowance", () => {
    expect(side(order(), read({ balance: amount - 1n }))).toEqual({ kind: "short", reason: "insufficient_balance" });
    expect(side(order(), read({ permit2Allowance: 0n }))).toEqual({ kind: "short", reason: "insufficient_allowance" });
  });

  it("takes a permit that still grants for the allowance, and rests one whose nonce was used", async () => {
    const erc2612 = await permitFor(7n);
    const short = { permit2Allowance: 0n };
    expect(side(order({ erc2612 }), read({ ...short, permit: { nonce: 7n, domainSeparator } }))).toEqual({
      kind: "whole",
    });
    expect(side(order({ erc2612 }), read({ ...short, permit: { nonce: 8n, domainSeparator } }))).toEqual({
      kind: "short",
      reason: "permit_spent",
    });
    // Spent, but the allowance it granted (or the taker's own approval) is there: whole.
    expect(side(order({ erc2612 }), read({ permit: { nonce: 8n, domainSeparator } }))).toEqual({ kind: "whole" });
  });

  it("rests an order whose recipient the buy token refuses, until it takes it", () => {
    const recipient = { buyToken: token, address: owner.address };
    expect(side(order({ recipient }), read({ recipientAccepts: false }))).toEqual({
      kind: "short",
      reason: "recipient_refused",
    });
    expect(side(order({ recipient }), read({ recipientAccepts: true }))).toEqual({ kind: "whole" });
  });
});
