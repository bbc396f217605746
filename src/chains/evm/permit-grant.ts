import { type Address, concat, type Hex, hashStruct, keccak256 } from "viem";
import type { Erc2612Permit } from "../../schemas";
import { signedBy } from "./strict-signature";
import { ERC2612_PERMIT_TYPES } from "./typed-data";

/**
 * What a limit order's EIP-2612 permit can still grant (docs/limit-orders.md, "The keeper's job"): the
 * token takes a permit signed for the owner's next nonce (`nonces(owner)`) before its deadline. A permit
 * is signed for the nonce the owner had when the order was placed; once that nonce is used (the keeper
 * applied it with a fill, the taker sent it, or sent another permit), the permit grants nothing again.
 * The order does not store that nonce: the permit is the owner's signature over the token's digest for the
 * nonce read now, or it was signed for an earlier one.
 */
export type PermitGrant = "grants" | "permit_spent" | "permit_expired";

/** The EIP-2612 digest of `permit` for `nonce` under the token's `DOMAIN_SEPARATOR()`. */
export function permitDigest(
  domainSeparator: Hex,
  permit: Erc2612Permit,
  owner: Address,
  spender: Address,
  nonce: bigint,
): Hex {
  const struct = hashStruct({
    types: ERC2612_PERMIT_TYPES,
    primaryType: "Permit",
    data: { owner, spender, value: BigInt(permit.value), nonce, deadline: BigInt(permit.deadline) },
  });
  return keccak256(concat(["0x1901", domainSeparator, struct]));
}

/** The permit's `v`, `r`, `s` as the 65 bytes `r ‖ s ‖ v` the token recovers. */
const signatureOf = (permit: Erc2612Permit): string =>
  `${permit.r}${permit.s.slice(2)}${permit.v.toString(16).padStart(2, "0")}`;

/** Whether the token would take `permit` now: its deadline not passed (unix seconds) and signed for `nonce`. */
export function permitGrant(args: {
  permit: Erc2612Permit;
  owner: Address;
  spender: Address;
  /** The token's `nonces(owner)` now. */
  nonce: bigint;
  domainSeparator: Hex;
  nowSeconds: number;
}): PermitGrant {
  const { permit, owner, spender, nonce, domainSeparator } = args;
  if (BigInt(permit.deadline) < BigInt(args.nowSeconds)) return "permit_expired";
  const digest = permitDigest(domainSeparator, permit, owner, spender, nonce);
  return signedBy(digest, signatureOf(permit), owner) ? "grants" : "permit_spent";
}
