import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  toHex,
} from "viem";
import type { EvmChain } from "../../config";
import type { Erc2612Permit } from "../../schemas";
import { ChainUnavailableError } from "../settler";
import { permit2Abi } from "./abi/permit2";
import { testTokenAbi } from "./abi/test-token";
import {
  asCallAnswer,
  type CallAnswer,
  type EthCall,
  ethCallRequest,
  type RpcAnswer,
  rpcBatch,
  uintsOf,
} from "./call-batch";
import { isTransportError, rpc, shortMessage } from "./rpc";
import { type WalletVerdict, walletSignatureRequests, walletVerdict } from "./wallet-signature";

/** How long one read may take before the chain counts as unavailable. */
const READ_TIMEOUT_MS = 5_000;

/**
 * The chain reads placing a limit order needs (docs/limit-orders.md, "Placing"): a port, so the routes
 * can be tested without a chain. Every read throws `ChainUnavailableError` when the RPC does not answer.
 */
export interface LimitChainReads {
  /** The owner's balance of `token` and what Permit2 may spend of it. */
  funds(owner: Address, token: Address): Promise<{ balance: bigint; permit2Allowance: bigint }>;
  /** Whether the token would accept `permit` as the owner's EIP-2612 approval of Permit2 now (a call, not sent). */
  permitAccepted(owner: Address, token: Address, permit: Erc2612Permit): Promise<boolean>;
  /** Permit2's bitmap of the owner's spent or invalidated unordered nonces at `wordPos`. */
  nonceBitmap(owner: Address, wordPos: bigint): Promise<bigint>;
  /**
   * For each order, `funds` and `nonceBitmap` together, and what `TakerSideRead` asks besides: every
   * order's reads in ONE batch request.
   */
  takerSides(orders: readonly TakerSideRead[]): Promise<TakerSideFunds[]>;
  /**
   * Permit2's verdict on `signer`'s signature of `hash` (src/chains/evm/wallet-signature.ts): the signer's
   * code and its `isValidSignature` in one batch, the strict rule when it has no code.
   */
  walletVerdict(signed: { signer: Address; hash: Hex; signature: string }): Promise<WalletVerdict>;
}

/**
 * Which of its taker's side an order needs read: the owner's funds of `token`, its nonce word; with
 * `permit`, the token's EIP-2612 nonce of the owner and its domain, for what the order's permit can still
 * grant; with `recipient`, whether the buy token takes a transfer to it from the reactor (docs/limit-orders.md,
 * "The keeper's job").
 */
export interface TakerSideRead {
  owner: Address;
  token: Address;
  wordPos: bigint;
  permit: boolean;
  recipient: { token: Address; to: Address } | null;
}

export interface TakerSideFunds {
  balance: bigint;
  permit2Allowance: bigint;
  bitmap: bigint;
  /** The token's `nonces(owner)` and `DOMAIN_SEPARATOR()`; null when not asked. */
  permit: { nonce: bigint; domainSeparator: Hex } | null;
  /** Whether the buy token took a transfer of 0 to the recipient from the reactor (a call, not sent); null when not asked. */
  recipientAccepts: boolean | null;
}

const TAKER_SIDES = "reading the orders' taker sides";

/** The calls of one order's reads, in order: balance, allowance, nonce word, the permit's two, the transfer. */
function takerSideCalls(read: TakerSideRead, permit2: Address, reactor: Address): (EthCall & { from?: Address })[] {
  const { owner, token, wordPos, recipient } = read;
  return [
    { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }) },
    { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [owner, permit2] }) },
    { to: permit2, data: encodeFunctionData({ abi: permit2Abi, functionName: "nonceBitmap", args: [owner, wordPos] }) },
    ...(read.permit
      ? [
          { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: "nonces", args: [owner] }) },
          { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: "DOMAIN_SEPARATOR" }) },
        ]
      : []),
    // The reactor's own transfer of the output to the recipient, for 0: a token that refuses the
    // recipient (a blacklist) refuses it whatever the amount.
    ...(recipient
      ? [
          {
            from: reactor,
            to: recipient.token,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [recipient.to, 0n] }),
          },
        ]
      : []),
  ];
}

/** One order's answers, in the order of its calls. */
function takerSideFunds(read: TakerSideRead, answers: readonly RpcAnswer[]): TakerSideFunds {
  const transfer = read.recipient ? answers.at(-1) : undefined;
  const uints = uintsOf(read.recipient ? answers.slice(0, -1) : answers, TAKER_SIDES);
  const [balance, permit2Allowance, bitmap, nonce, separator] = uints as [bigint, bigint, bigint, ...bigint[]];
  return {
    balance,
    permit2Allowance,
    bitmap,
    permit:
      nonce !== undefined && separator !== undefined
        ? { nonce, domainSeparator: toHex(separator, { size: 32 }) }
        : null,
    recipientAccepts: transfer ? transferTaken(asCallAnswer(transfer)) : null,
  };
}

/** A token's answer to `transfer`: taken when it returned nothing or true; refused when it reverted or returned false. */
function transferTaken(answer: CallAnswer): boolean {
  if (!answer.ok) return false;
  return answer.data === "0x" || BigInt(answer.data) !== 0n;
}

/** The reads through the chain's JSON-RPC (fetch-based, so they run in workerd). */
export function rpcLimitReads(chain: EvmChain): LimitChainReads {
  const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: READ_TIMEOUT_MS }) });
  const permit2 = getAddress(chain.permit2);
  return {
    async funds(owner, token) {
      const [balance, permit2Allowance] = await rpc("reading the taker's funds", () =>
        Promise.all([
          client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
          client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [owner, permit2] }),
        ]),
      );
      return { balance, permit2Allowance };
    },

    async permitAccepted(owner, token, permit) {
      const data = encodeFunctionData({
        abi: testTokenAbi,
        functionName: "permit",
        args: [
          owner,
          permit2,
          BigInt(permit.value),
          BigInt(permit.deadline),
          permit.v,
          permit.r as Hex,
          permit.s as Hex,
        ],
      });
      try {
        await client.call({ to: token, data });
        return true;
      } catch (e) {
        // A revert is the token's no (a bad signature, a used nonce, no EIP-2612 at all).
        if (isTransportError(e)) throw new ChainUnavailableError(`checking the EIP-2612 permit: ${shortMessage(e)}`);
        return false;
      }
    },

    async takerSides(orders) {
      const reactor = getAddress(chain.reactor);
      const calls = orders.map((o) => takerSideCalls(o, permit2, reactor));
      const answers = await rpcBatch(chain.rpcUrl, TAKER_SIDES, calls.flat().map(ethCallRequest));
      let at = 0;
      return orders.map((order, i) => {
        const count = calls[i]?.length ?? 0;
        at += count;
        return takerSideFunds(order, answers.slice(at - count, at));
      });
    },

    async walletVerdict(signed) {
      const requests = walletSignatureRequests({ ...signed, verifier: permit2 });
      return walletVerdict(await rpcBatch(chain.rpcUrl, "checking the taker's signature", requests), signed);
    },

    nonceBitmap(owner, wordPos) {
      return rpc("reading the Permit2 nonce bitmap", () =>
        client.readContract({ address: permit2, abi: permit2Abi, functionName: "nonceBitmap", args: [owner, wordPos] }),
      );
    },
  };
}
