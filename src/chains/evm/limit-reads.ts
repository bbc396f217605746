import { type Address, createPublicClient, encodeFunctionData, erc20Abi, getAddress, type Hex, http } from "viem";
import type { EvmChain } from "../../config";
import type { Erc2612Permit } from "../../schemas";
import { ChainUnavailableError } from "../settler";
import { permit2Abi } from "./abi/permit2";
import { testTokenAbi } from "./abi/test-token";
import { readUints } from "./call-batch";
import { isTransportError, rpc, shortMessage } from "./rpc";

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
  /** For each order, `funds` and `nonceBitmap` together: every order's reads in ONE batch request. */
  takerSides(orders: readonly TakerSideRead[]): Promise<TakerSideFunds[]>;
}

/** Which of its taker's side an order needs read: the owner's funds of `token`, its nonce word. */
export interface TakerSideRead {
  owner: Address;
  token: Address;
  wordPos: bigint;
}

export interface TakerSideFunds {
  balance: bigint;
  permit2Allowance: bigint;
  bitmap: bigint;
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
      const calls = orders.flatMap(({ owner, token, wordPos }) => [
        { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }) },
        { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [owner, permit2] }) },
        {
          to: permit2,
          data: encodeFunctionData({ abi: permit2Abi, functionName: "nonceBitmap", args: [owner, wordPos] }),
        },
      ]);
      const values = await readUints(chain.rpcUrl, "reading the orders' taker sides", calls);
      const at = (k: number): bigint => {
        const value = values[k];
        if (value === undefined) throw new ChainUnavailableError("reading the orders' taker sides: a call unanswered");
        return value;
      };
      return orders.map((_, i) => ({ balance: at(3 * i), permit2Allowance: at(3 * i + 1), bitmap: at(3 * i + 2) }));
    },

    nonceBitmap(owner, wordPos) {
      return rpc("reading the Permit2 nonce bitmap", () =>
        client.readContract({ address: permit2, abi: permit2Abi, functionName: "nonceBitmap", args: [owner, wordPos] }),
      );
    },
  };
}
