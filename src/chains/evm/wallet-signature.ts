import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem";
import { ChainUnavailableError } from "../settler";
import type { RpcAnswer } from "./call-batch";
import { recoverStrict, strictRuleBreach } from "./strict-signature";

/**
 * A signature checked as Permit2 checks it (docs/security.md, "Takers with code"): OpenZeppelin's
 * `SignatureChecker.isValidSignatureNow`, which asks the signer's code when its address has any (an
 * ERC-1271 wallet, or an EOA delegated by EIP-7702, whose code is `0xef0100 ‖ delegate`) and recovers the
 * signature by the strict rule only when it has none (src/chains/evm/strict-signature.ts). Which path
 * applies is a chain read; both reads go into the caller's batch, so an address without code costs no
 * round trip of its own.
 */

/** ERC-1271's magic value, which `isValidSignature` returns for a signature it accepts. */
const MAGIC_VALUE = "0x1626ba7e";

const erc1271Abi = parseAbi(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"]);

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** What the chain answers of a signature, as Permit2 would: accepted, or why not. */
export type WalletVerdict =
  | { ok: true }
  /** No code at `signer`: the strict rule decides; `rule` is the part it breaks, when that is why. */
  | { ok: false; path: "key"; rule: string | null }
  /** Code at `signer`: its `isValidSignature` did not answer the magic value. */
  | { ok: false; path: "code" };

/**
 * The two reads that decide `signer`'s signature of `hash`, for the caller's batch: the address's code,
 * and its answer to `isValidSignature(hash, signature)` as `verifier` (the contract that checks it on
 * chain: Permit2) would ask it. The second is asked whatever the first says, so the answer comes in the
 * same round trip; an address without code answers it with nothing, and that answer is not used.
 */
export function walletSignatureRequests(at: { signer: Address; hash: Hex; signature: string; verifier?: Address }) {
  // The schemas admit only hex signatures; anything else could never pass the code path either.
  const signature = HEX_BYTES.test(at.signature) ? (at.signature as Hex) : "0x";
  const data = encodeFunctionData({ abi: erc1271Abi, functionName: "isValidSignature", args: [at.hash, signature] });
  const call = at.verifier ? { from: at.verifier, to: at.signer, data } : { to: at.signer, data };
  return [
    { method: "eth_getCode", params: [at.signer, "latest"] },
    { method: "eth_call", params: [call, "latest"] },
  ] as const;
}

/**
 * Whether the return data of `isValidSignature` is acceptance as OpenZeppelin reads it: at least one word,
 * whose first word is the magic value left-aligned, the rest of it zero.
 */
export function isMagicValue(data: string): boolean {
  return data.length >= 66 && data.slice(0, 66).toLowerCase() === `${MAGIC_VALUE}${"0".repeat(56)}`;
}

/**
 * The verdict on `signer`'s signature of `hash` from the answers to `walletSignatureRequests`. Throws
 * `ChainUnavailableError` when the node did not say what code the address has: neither path can be
 * chosen without it. A call to the code that reverts or answers anything but the magic value is a refusal,
 * as on chain.
 */
export function walletVerdict(
  answers: readonly (RpcAnswer | undefined)[],
  at: { signer: Address; hash: Hex; signature: string },
): WalletVerdict {
  const [code, call] = answers;
  if (!code?.ok || typeof code.result !== "string") {
    throw new ChainUnavailableError(
      `reading the signer's code: ${code?.ok ? "not hex" : (code?.error ?? "no answer")}`,
    );
  }
  if (code.result === "0x" || code.result === "") return keyVerdict(at);
  const accepted = call?.ok === true && typeof call.result === "string" && isMagicValue(call.result);
  return accepted ? { ok: true } : { ok: false, path: "code" };
}

/** The strict rule alone: what Permit2 applies to an address without code. No RPC. */
export function keyVerdict(at: { signer: Address; hash: Hex; signature: string }): WalletVerdict {
  const rule = strictRuleBreach(at.signature);
  if (rule) return { ok: false, path: "key", rule };
  const recovered = recoverStrict(at.hash, at.signature);
  return recovered && recovered.address.toLowerCase() === at.signer.toLowerCase()
    ? { ok: true }
    : { ok: false, path: "key", rule: null };
}
