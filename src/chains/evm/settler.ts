import {
  type Address,
  BaseError,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  parseTransaction,
  RpcRequestError,
  TransactionNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blamed } from "../../blame";
import type { EvmChain } from "../../config";
import {
  type BroadcastResult,
  type ChainSettler,
  ChainUnavailableError,
  type FillCall,
  type FillRequest,
  type NonceStore,
  type SettlementScheme,
  type SignedFill,
  settlerLog,
} from "../settler";
import { permit2Abi } from "./abi/permit2";
import { evmAdapter } from "./adapter";
import { readUints } from "./call-batch";
import { isFinal } from "./finality";
import { parseKeeperKeys } from "./keeper-key";
import { isLimitSigning, limitCall, parseLimitSigning } from "./limit-call";
import { nonceWord } from "./limit-orders";
import { NonceCursor } from "./nonces";
import { refusalReason, revertOutcome } from "./revert-reasons";
import { decodedRevert, isTransportError, rpc, shortMessage } from "./rpc";
import { type ChainShared, chainShared } from "./settler-client";
import { raisedFees } from "./settler-fees";
import { evmReceipt } from "./settler-receipt";
import { minedRevertReason } from "./settler-revert";
import { verifyEvmTaker } from "./settler-taker";
import { fillCall, parseSigning } from "./stored-signing";
import { takerReadiness } from "./taker-readiness";

/** Head room over the gas estimate, in percent. */
const GAS_HEADROOM_PERCENT = 20n;

const log = settlerLog;

/**
 * EVM settlement: the taker's Permit2 signature in `signature`, the keeper's hex keys in
 * `KEEPER_PRIVATE_KEY` (one, or a pool separated by commas: docs/settlement.md, "The wallet pool").
 */
export function evmSettlement(chain: EvmChain): SettlementScheme {
  return {
    secretName: "KEEPER_PRIVATE_KEY",
    submissionField: "signature",
    submissionHint: "required: the quote is on an EVM chain, so send the taker's signature",
    withKeys(secret, nonces) {
      const keys = parseKeeperKeys(secret);
      if (!keys) return null;
      const shared = chainShared(chain);
      return keys.map((key) => evmSettler(chain, key, nonces, shared));
    },
  };
}

/**
 * Settlement on one EVM chain through its JSON-RPC endpoint (fetch-based, so it runs in workerd) from
 * one keeper wallet, with its own nonce sequence kept in `nonces` and in memory, and the chain's fee data
 * shared with the other wallets of the pool (`shared`).
 */
function evmSettler(chain: EvmChain, keeperKey: Hex, nonces: NonceStore, shared: ChainShared): ChainSettler {
  const { client, fees } = shared;
  const account = privateKeyToAccount(keeperKey);
  const executor = getAddress(chain.executor);
  const reactor = getAddress(chain.reactor);
  const permit2 = getAddress(chain.permit2);
  const adapter = evmAdapter(chain);
  /** How the keeper's address is spelled in the nonce store. */
  const nonceKey = account.address.toLowerCase();
  const cursor = new NonceCursor({ address: nonceKey, keeper: account.address }, nonces, () =>
    rpc("reading the keeper's nonce", () =>
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    ),
  );

  /** Why a call from the keeper reverts, as a settlement outcome. */
  const outcomeOf = (e: unknown, request: FillRequest) => {
    const limit = isLimitSigning(request.signing);
    return revertOutcome(decodedRevert(e), {
      taker: request.taker,
      resolver: limit
        ? parseLimitSigning(request.quoteId, request.signing).bid.resolver
        : parseSigning(request.signing).order.resolver,
      permit2,
      executor: limit ? reactor : executor,
    });
  };

  /** The Permit2 nonce the taker signed: the quote's, or the limit order's in its round. */
  const permit2NonceOf = (request: FillRequest) =>
    isLimitSigning(request.signing)
      ? parseLimitSigning(request.quoteId, request.signing).nonce
      : parseSigning(request.signing).permit.nonce;

  /** The settlement call: the executor's fill, or the reactor's in a limit order's round. */
  const callOf = (request: FillRequest) =>
    isLimitSigning(request.signing) ? limitCall(reactor, request) : fillCall(executor, request);

  const callFrom = (call: FillCall) => ({ account: account.address, to: call.to as Address, data: call.data as Hex });

  /** How many of the keeper's transactions are mined. */
  const minedNonce = () =>
    rpc("reading the keeper's mined nonce", () =>
      client.getTransactionCount({ address: account.address, blockTag: "latest" }),
    );

  const presence = async (hash: string) => {
    try {
      await rpc("looking up a transaction", () => client.getTransaction({ hash: hash as Hex }));
      return "known" as const;
    } catch (e) {
      if (e instanceof TransactionNotFoundError) return "unknown" as const;
      throw e;
    }
  };

  async function broadcast(tx: SignedFill): Promise<BroadcastResult> {
    try {
      await client.request({ method: "eth_sendRawTransaction", params: [tx.raw as Hex] });
      return { status: "accepted" };
    } catch (e) {
      if (isTransportError(e) || !(e instanceof BaseError) || !e.walk((x) => x instanceof RpcRequestError)) {
        return { status: "unreachable", reason: shortMessage(e) };
      }
      // A refusal may only mean the node has it already (sent before, answer lost): ask by hash.
      try {
        if ((await presence(tx.hash)) === "known") return { status: "known" };
      } catch {
        return { status: "unreachable", reason: shortMessage(e) };
      }
      const details = e.walk((x) => x instanceof RpcRequestError) as RpcRequestError;
      return { status: "refused", reason: refusalReason(details.details || details.shortMessage) };
    }
  }

  return {
    chainId: chain.chainId,
    keeper: account.address,

    verifyTaker: (request) =>
      verifyEvmTaker({ chainId: chain.chainId, permit2, executor, reactor }, request, adapter.sameAddress),

    async readiness(request, now) {
      const token = getAddress(request.sellToken);
      const taker = getAddress(request.taker);
      const nonce = permit2NonceOf(request);
      const { wordPos, mask } = nonceWord(nonce);
      // One batch: the three reads see the same block (docs/reliability.md, "Blame").
      const [permit2Allowance, balance, bitmap] = await readUints(chain.rpcUrl, "reading the taker's side", [
        { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [taker, permit2] }) },
        { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [taker] }) },
        {
          to: permit2,
          data: encodeFunctionData({ abi: permit2Abi, functionName: "nonceBitmap", args: [taker, wordPos] }),
        },
      ]);
      return takerReadiness({
        funds: { permit2Allowance, balance, nonceUsed: (bitmap & mask) !== 0n },
        takerPays: BigInt(request.takerPays),
        permit: request.permit,
        now,
        token: adapter.token(request.sellToken)?.symbol ?? request.sellToken,
      });
    },

    async prepare(request) {
      const call = callOf(request);
      try {
        await client.call(callFrom(call));
      } catch (e) {
        if (isTransportError(e)) throw new ChainUnavailableError(`simulating: ${shortMessage(e)}`);
        return outcomeOf(e, request);
      }
      let estimate: bigint;
      try {
        estimate = await client.estimateGas(callFrom(call));
      } catch (e) {
        if (isTransportError(e)) throw new ChainUnavailableError(`estimating gas: ${shortMessage(e)}`);
        // A party acted between the call and the estimate: the revert says whose doing it is.
        return outcomeOf(e, request);
      }
      return { kind: "prepared", fill: { call, gas: estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n } };
    },

    async ready() {
      await Promise.all([cursor.ready(), fees.ready()]);
    },

    async sign(request, fill, record) {
      // Both kept in memory after `ready`: no RPC here, but for a wallet's very first use.
      const nonce = await cursor.peek();
      const pricing = await fees.current();
      const { call, gas } = fill;
      const common = { chainId: chain.chainId, nonce, gas, to: call.to as Address, data: call.data as Hex, value: 0n };
      const raw =
        "gasPrice" in pricing
          ? await account.signTransaction({ ...common, type: "legacy", gasPrice: pricing.gasPrice })
          : await account.signTransaction({ ...common, type: "eip1559", ...pricing });
      const tx: SignedFill = { hash: keccak256(raw), raw, nonce, call, request };
      cursor.take(nonce, () => record(tx));
      return tx;
    },

    release(tx, forget) {
      // Nothing was handed out after it: the wallet signs nothing new while a transaction is unconfirmed.
      cursor.forget(tx.nonce, forget);
    },

    broadcast,

    async recover(tx) {
      return (await presence(tx.hash)) === "known" ? { status: "known" } : broadcast(tx);
    },

    async status(tx) {
      const mined = await evmReceipt(client, { executor, reactor }, tx.hash, adapter.sameAddress);
      if (mined?.status === "reverted") {
        const replay = (blockNumber: bigint) => client.call({ ...callFrom(tx.call), blockNumber });
        const reason = await minedRevertReason(replay, (e) => outcomeOf(e, tx.request), mined.block);
        return { state: "reverted", reason: reason ?? blamed("relay", "reverted"), gasUsed: mined.gasUsed };
      }
      if (mined) return { state: "landed", receipt: mined };
      if ((await presence(tx.hash)) === "known") return { state: "pending" };
      // Gone from the network: another transaction took its nonce, or it was lost and is sent again.
      if ((await minedNonce()) > tx.nonce) return { state: "dropped" };
      const result = await broadcast(tx);
      if (result.status === "refused" || result.status === "unreachable") {
        log("rebroadcast_failed", { chainId: chain.chainId, txHash: tx.hash, reason: result.reason });
      }
      return { state: "pending" };
    },

    replacement: {
      afterMs: chain.replacement.afterSeconds * 1000,
      maxBumps: chain.replacement.maxBumps,
    },

    async replace(tx) {
      const before = parseTransaction(tx.raw as Hex);
      const raised = raisedFees(before, await fees.current(), chain.replacement.bumpPercent);
      const to = tx.call.to as Address;
      const common = {
        chainId: chain.chainId,
        nonce: tx.nonce,
        gas: before.gas,
        to,
        data: tx.call.data as Hex,
        value: 0n,
      };
      const raw = await account.signTransaction({ ...common, ...raised });
      return { ...tx, hash: keccak256(raw), raw };
    },

    async head() {
      return Number(await rpc("reading the block number", () => client.getBlockNumber({ cacheTime: 0 })));
    },

    isFinal: (block, head) => isFinal(block, head, chain.finalityConfirmations),
  };
}
