import { describe, expect, it } from "vitest";
import { isTakerReason, refusalReason, revertOutcome } from "../../src/chains/evm/revert-reasons";

const parties = {
  taker: "0x1111111111111111111111111111111111111111",
  resolver: "0x2222222222222222222222222222222222222222",
  permit2: "0x3333333333333333333333333333333333333333",
  executor: "0x4444444444444444444444444444444444444444",
};
const other = "0x5555555555555555555555555555555555555555";
const upper = (a: string) => `0x${a.slice(2).toUpperCase()}`;

describe("revertOutcome: a simulated revert as a requote reason", () => {
  it.each([
    ["OrderExpired", [1n], "order_expired"],
    ["NonceMismatch", [1n, 2n], "nonce_mismatch"],
    ["TokenNotAllowed", [other], "token_not_allowed"],
    ["SameToken", [other], "same_token"],
    ["GasFeeTokenNotInPair", [other], "gas_fee_token_not_in_pair"],
    ["GasFeeExceedsTakerPays", [2n, 1n], "gas_fee_exceeds_taker_pays"],
    ["FeeMismatch", [1n, 2n], "fee_mismatch"],
    ["InvalidResolverSignature", [], "invalid_resolver_signature"],
    ["SignatureExpired", [1n], "signature_expired"],
    ["InvalidNonce", [], "nonce_used"],
    ["InvalidAmount", [1n], "invalid_amount"],
  ])("%s → %s", (name, args, reason) => {
    expect(revertOutcome({ name, args }, parties)).toEqual({ kind: "requote", reason });
  });

  it("tells whose balance is short: the taker's is for the taker to fix", () => {
    const short = (sender: string) =>
      revertOutcome({ name: "ERC20InsufficientBalance", args: [sender, 0n, 1n] }, parties);
    expect(short(upper(parties.taker))).toEqual({ kind: "requote", reason: "taker:insufficient_balance" });
    expect(short(parties.resolver)).toEqual({ kind: "requote", reason: "resolver_insufficient_balance" });
    expect(short(other)).toEqual({ kind: "requote", reason: "insufficient_balance" });
  });

  it("tells whose allowance is short by its spender: Permit2 pulls the taker's side, the executor the resolver's", () => {
    const short = (spender: string) =>
      revertOutcome({ name: "ERC20InsufficientAllowance", args: [spender, 0n, 1n] }, parties);
    expect(short(parties.permit2)).toEqual({ kind: "requote", reason: "taker:insufficient_allowance" });
    expect(short(parties.executor)).toEqual({ kind: "requote", reason: "resolver_insufficient_allowance" });
    expect(short(other)).toEqual({ kind: "requote", reason: "insufficient_allowance" });
  });

  it("makes a taker signature Permit2 refuses a bad_signature, not a requote", () => {
    expect(revertOutcome({ name: "InvalidSigner", args: [] }, parties)).toEqual({ kind: "bad_signature" });
  });

  it("refuses the submission when the executor does not accept the keeper", () => {
    expect(revertOutcome({ name: "NotKeeper", args: [other] }, parties)).toEqual({
      kind: "keeper_refused",
      reason: "keeper_not_allowed",
    });
  });

  it("answers `reverted` for a revert it cannot name", () => {
    expect(revertOutcome(null, parties)).toEqual({ kind: "requote", reason: "reverted" });
    expect(revertOutcome({ name: "Error", args: ["boom"] }, parties)).toEqual({ kind: "requote", reason: "reverted" });
  });

  it("marks only taker: reasons as the taker's", () => {
    expect(isTakerReason("taker:insufficient_balance")).toBe(true);
    expect(isTakerReason("resolver_insufficient_balance")).toBe(false);
  });
});

describe("refusalReason: why the RPC refused a broadcast", () => {
  it.each([
    ["Insufficient funds for gas * price + value", "insufficient_funds"],
    ["nonce too low", "nonce_too_low"],
    ["Nonce too high", "nonce_too_high"],
    ["replacement transaction underpriced", "underpriced"],
    ["max fee per gas less than block base fee", "underpriced"],
    ["intrinsic gas too low", "gas_limit"],
    ["already known", "already_known"],
    ["  something\n  else  ", "rejected: something else"],
    ["", "rejected"],
  ])("%j → %s", (message, reason) => {
    expect(refusalReason(message)).toBe(reason);
  });
});
