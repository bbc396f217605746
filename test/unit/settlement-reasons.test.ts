import { encodeErrorResult, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { blacklistTokenAbi } from "../../src/chains/evm/abi/blacklist-token";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { refusalReason, revertOutcome } from "../../src/chains/evm/revert-reasons";
import { blameOf } from "../../src/states/blame";

const parties = {
  taker: "0x1111111111111111111111111111111111111111",
  resolver: "0x2222222222222222222222222222222222222222",
  permit2: "0x3333333333333333333333333333333333333333",
  executor: "0x4444444444444444444444444444444444444444",
};
const other = "0x5555555555555555555555555555555555555555";
const upper = (a: string) => `0x${a.slice(2).toUpperCase()}`;

describe("revertOutcome: a simulated revert as a requote reason, blamed by the chain's evidence", () => {
  it.each([
    ["OrderExpired", [1n], "relay:order_expired"],
    ["NonceMismatch", [1n, 2n], "relay:nonce_mismatch"],
    ["TokenNotAllowed", [other], "relay:token_not_allowed"],
    ["SameToken", [other], "relay:same_token"],
    ["GasFeeTokenNotInPair", [other], "relay:gas_fee_token_not_in_pair"],
    ["GasFeeExceedsTakerPays", [2n, 1n], "relay:gas_fee_exceeds_taker_pays"],
    ["ReceivedBelowMinimum", [1n, 2n], "relay:received_below_minimum"],
    ["LegCountOutOfRange", [5n, 4n], "relay:leg_count_out_of_range"],
    ["DuplicateResolver", [other], "relay:duplicate_resolver"],
    ["ZeroAmountLeg", [other], "relay:zero_amount_leg"],
    ["LegsSumMismatch", [1n, 2n], "relay:legs_sum_mismatch"],
    ["FillExpired", [1n], "relay:fill_expired"],
    ["GasFeeAboveMax", [2n, 1n], "relay:gas_fee_above_max"],
    ["OutputBelowMinOut", [1n, 2n], "relay:output_below_min_out"],
    ["SignatureExpired", [1n], "relay:signature_expired"],
    ["InvalidNonce", [], "taker:nonce_used"],
    ["InvalidAmount", [1n], "relay:invalid_amount"],
  ])("%s → %s", (name, args, reason) => {
    expect(revertOutcome({ name, args }, parties)).toEqual({ kind: "requote", reason });
  });

  it("names the resolver whose leg's signature the executor refuses, the winner's or another leg's", () => {
    // Another leg's resolver than the winner's: still a resolver's doing, never the taker's or the relay's.
    for (const resolver of [parties.resolver, other]) {
      expect(revertOutcome({ name: "InvalidResolverSignature", args: [resolver] }, parties)).toEqual({
        kind: "requote",
        reason: "resolver:invalid_signature",
        resolver,
      });
    }
  });

  it("tells whose balance is short: the taker's is for the taker to fix", () => {
    const short = (sender: string) =>
      revertOutcome({ name: "ERC20InsufficientBalance", args: [sender, 0n, 1n] }, parties);
    expect(short(upper(parties.taker))).toEqual({ kind: "requote", reason: "taker:insufficient_balance" });
    expect(short(parties.resolver)).toEqual({
      kind: "requote",
      reason: "resolver:insufficient_balance",
      shortfall: 1n,
    });
    expect(short(other)).toEqual({ kind: "requote", reason: "relay:insufficient_balance" });
  });

  it("says by how much the resolver's balance fell short, the keeper's evidence of whose doing it was", () => {
    const short = (balance: bigint, needed: bigint) =>
      revertOutcome({ name: "ERC20InsufficientBalance", args: [parties.resolver, balance, needed] }, parties);
    expect(short(5_000n, 6_000n)).toEqual({
      kind: "requote",
      reason: "resolver:insufficient_balance",
      shortfall: 1_000n,
    });
    const leg = encodeErrorResult({
      abi: testTokenAbi,
      errorName: "ERC20InsufficientBalance",
      args: [parties.resolver as Hex, 1_000_000_000n, 2_000_000_000n],
    });
    expect(revertOutcome({ name: "ResolverLegFailed", args: [parties.resolver, leg] }, parties)).toEqual({
      kind: "requote",
      reason: "resolver:insufficient_balance",
      shortfall: 1_000_000_000n,
      resolver: parties.resolver,
    });
  });

  it("tells whose allowance is short by its spender: Permit2 pulls the taker's side, the executor the resolver's", () => {
    const short = (spender: string) =>
      revertOutcome({ name: "ERC20InsufficientAllowance", args: [spender, 0n, 1n] }, parties);
    expect(short(parties.permit2)).toEqual({ kind: "requote", reason: "taker:insufficient_allowance" });
    expect(short(parties.executor)).toEqual({ kind: "requote", reason: "resolver:insufficient_allowance" });
    expect(short(other)).toEqual({ kind: "requote", reason: "relay:insufficient_allowance" });
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

  it("blames the relay for a revert that names no leg, never the resolver", () => {
    expect(revertOutcome(null, parties)).toEqual({ kind: "requote", reason: "relay:reverted" });
    expect(revertOutcome({ name: "Error", args: ["boom"] }, parties)).toEqual({
      kind: "requote",
      reason: "relay:reverted",
    });
  });

  describe("a guarded leg's failure, blamed by the evidence inside it, else by the leg", () => {
    const tokenError = (errorName: "ERC20InsufficientBalance" | "ERC20InsufficientAllowance", account: string) =>
      encodeErrorResult({ abi: testTokenAbi, errorName, args: [account as Hex, 0n, 1n] });
    const permit2Error = (errorName: "InvalidNonce" | "InvalidSigner") =>
      encodeErrorResult({ abi: permit2Abi, errorName });
    const blacklisted = encodeErrorResult({ abi: blacklistTokenAbi, errorName: "Blacklisted", args: [other] });
    const falseReturned = `0x${"0".repeat(64)}`;
    // A resolver's leg names its resolver before the token's revert data.
    const outcome = (name: string, reason: unknown) =>
      revertOutcome({ name, args: name === "ResolverLegFailed" ? [parties.resolver, reason] : [reason] }, parties);

    it.each([
      ["TakerLegFailed", tokenError("ERC20InsufficientBalance", parties.taker), "taker:insufficient_balance"],
      ["TakerLegFailed", tokenError("ERC20InsufficientAllowance", parties.permit2), "taker:insufficient_allowance"],
      ["TakerLegFailed", permit2Error("InvalidNonce"), "taker:nonce_used"],
      [
        "TakerLegFailed",
        encodeErrorResult({ abi: permit2Abi, errorName: "SignatureExpired", args: [1n] }),
        "relay:signature_expired",
      ],
      ["TakerLegFailed", blacklisted, "taker:transfer_failed"],
      ["TakerLegFailed", "0x", "taker:transfer_failed"],
      ["ResolverLegFailed", tokenError("ERC20InsufficientBalance", parties.resolver), "resolver:insufficient_balance"],
      [
        "ResolverLegFailed",
        tokenError("ERC20InsufficientAllowance", parties.executor),
        "resolver:insufficient_allowance",
      ],
      ["ResolverLegFailed", blacklisted, "resolver:transfer_failed"],
      ["ResolverLegFailed", falseReturned, "resolver:transfer_failed"],
      // The executor short of the sell token (a fee-on-transfer token): the evidence names no party's account.
      ["ResolverLegFailed", tokenError("ERC20InsufficientBalance", parties.executor), "relay:insufficient_balance"],
      // The output already here: a recipient the token refuses is the taker's choice, not the resolver's fault.
      ["RecipientLegFailed", blacklisted, "taker:recipient_refused"],
      ["RecipientLegFailed", falseReturned, "taker:recipient_refused"],
      ["RecipientLegFailed", tokenError("ERC20InsufficientBalance", parties.executor), "relay:insufficient_balance"],
      ["FeeLegFailed", tokenError("ERC20InsufficientBalance", parties.resolver), "resolver:insufficient_balance"],
      ["FeeLegFailed", blacklisted, "relay:fee_transfer_failed"],
      ["FeeLegFailed", falseReturned, "relay:fee_transfer_failed"],
      ["FeeLegFailed", undefined, "relay:fee_transfer_failed"],
    ])("%s(%s) → %s", (name, reason, expected) => {
      // A resolver's short balance also says by how much (below).
      expect(outcome(name, reason)).toMatchObject({ kind: "requote", reason: expected });
    });

    it("blames the resolver a leg names, with its shortfall, when it is another leg's than the winner's", () => {
      const short = encodeErrorResult({
        abi: testTokenAbi,
        errorName: "ERC20InsufficientBalance",
        args: [other as Hex, 1_000n, 3_000n],
      });
      expect(revertOutcome({ name: "ResolverLegFailed", args: [other, short] }, parties)).toEqual({
        kind: "requote",
        reason: "resolver:insufficient_balance",
        shortfall: 2_000n,
        resolver: other,
      });
      expect(revertOutcome({ name: "ResolverLegFailed", args: [other, blacklisted] }, parties)).toEqual({
        kind: "requote",
        reason: "resolver:transfer_failed",
        resolver: other,
      });
    });

    it("keeps a taker signature Permit2 refuses a bad_signature inside the taker's leg", () => {
      expect(outcome("TakerLegFailed", permit2Error("InvalidSigner"))).toEqual({ kind: "bad_signature" });
    });
  });

  it("reads the party from the reason's prefix", () => {
    expect(blameOf("taker:insufficient_balance")).toBe("taker");
    expect(blameOf("resolver:insufficient_allowance")).toBe("resolver");
    expect(blameOf("relay:dropped:nonce_too_low")).toBe("relay");
    expect(blameOf("insufficient_balance")).toBeNull();
    expect(blameOf(null)).toBeNull();
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
