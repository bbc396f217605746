import {
  type Address,
  BaseError,
  getAddress,
  type Hex,
  isHex,
  keccak256,
  parseTransaction,
  RpcRequestError,
  TransactionNotFoundError,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { EvmChain } from "../../config";
import { blamed } from "../../states";
import {
  type BroadcastResult,
  type ChainSettler,
  type FillCall,
  type FillRequest,
  type NonceStore,
  notReady,
  type SettlementScheme,
  type SignedFill,
  settlerLog,
  type TxReceipt,
  type TxStatus,
} from "../settler";
import { evmAdapter } from "./adapter";
import { quantityOf, rpcBatch } from "./call-batch";
import { isFinal } from "./finality";
import { parseKeeperKeys } from "./keeper-key";
import { isLimitSigning, limitCall, parseLimitSigning } from "./limit-call";
import { NonceGaps } from "./nonce-gaps";
import { NonceCursor } from "./nonces";
import { type DecodedRevert, refusalReason, revertOutcome } from "./revert-reasons";
import { decodedRevert, decodedRevertData, isTransportError, rpc, shortMessage } from "./rpc";
import { type ChainShared, chainShared } from "./settler-client";
import { raisedFees, type TxFees } from "./settler-fees";
import { fillGasLimit, withHeadroom } from "./settler-gas";
import { evmReceipts } from "./settler-receipt";
import { minedRevertReason } from "./settler-revert";
import { verifyEvmTaker } from "./settler-taker";
import { fillCall, parseSigning } from "./stored-signing";
import { takerFundsOf, takerReadiness, takerSideCalls } from "./taker-readiness";

/** The gas of a nonce filler: a plain transfer's (docs/settlement.md, "Nonce gaps"). */
const FILLER_GAS = 21_000n;

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

  /** What a revert (decoded by name, or null) of a call from the keeper means, as a settlement outcome. */
  const revertOf = (revert: DecodedRevert | null, request: FillRequest) => {
    const limit = isLimitSigning(request.signing);
    return revertOutcome(revert, {
      taker: request.taker,
      resolver: limit
        ? parseLimitSigning(request.quoteId, request.signing).bid.resolver
        : parseSigning(request.signing).order.resolver,
      permit2,
      executor: limit ? reactor : executor,
    });
  };
  /** Why a call from the keeper reverts: from viem's error, or from a batch answer's revert data. */
  const outcomeOf = (e: unknown, request: FillRequest) => revertOf(decodedRevert(e), request);
  const outcomeOfData = (data: string | undefined, request: FillRequest) =>
    revertOf(data && isHex(data) ? decodedRevertData(data) : null, request);

  /**
   * A fill that reverted at its gas limit without a reason: simulated without the limit and its gas
   * estimated, in one batch; prepared with the estimate and head room when it passes there.
   */
  const estimated = async (
    simulated: { from: Address; to: string; data: string },
    limit: bigint,
    call: FillCall,
    request: FillRequest,
  ) => {
    const answers = await rpcBatch(chain.rpcUrl, "estimating the fill's gas", [
      { method: "eth_call", params: [simulated, "latest"] },
      { method: "eth_estimateGas", params: [simulated] },
    ]);
    for (const answer of answers) if (!answer?.ok) return outcomeOfData(answer?.data, request);
    const gas = quantityOf(answers[1], "estimating gas");
    // Every such fill costs a second round trip: the configuration's units are below what fills use.
    const detail = { chainId: chain.chainId, quoteId: request.quoteId, limit: `${limit}`, estimate: `${gas}` };
    log("fill_over_gas_limit", detail);
    return { kind: "prepared", fill: { call, gas: withHeadroom(gas) } } as const;
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

  /** The fees of a transaction signed now: the chain's, kept since `ready`, in the transaction's type. */
  const feesNow = async (): Promise<TxFees> => {
    const pricing = await fees.current();
    return "gasPrice" in pricing ? { type: "legacy", gasPrice: pricing.gasPrice } : { type: "eip1559", ...pricing };
  };

  /** Signs a call from the keeper's wallet that carries no value. */
  const signCall = (nonce: number, gas: bigint | undefined, to: Address, data: Hex, txFees: TxFees): Promise<Hex> =>
    account.signTransaction({ chainId: chain.chainId, nonce, gas, to, data, value: 0n, ...txFees });

  const gaps = new NonceGaps({
    address: nonceKey,
    nonces,
    signFiller: async (nonce) => signCall(nonce, FILLER_GAS, account.address, "0x", await feesNow()),
    broadcast,
    minedNonce,
    notSent: (filler, reason) =>
      log("filler_not_sent", { chainId: chain.chainId, nonce: filler.nonce, txHash: filler.hash, reason }),
  });

  async function broadcast(tx: Pick<SignedFill, "hash" | "raw">): Promise<BroadcastResult> {
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

  /** Where a transaction stands once its receipt was read (`mined`, null while it is not mined). */
  async function statusOf(tx: SignedFill, mined: TxReceipt | null): Promise<TxStatus> {
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
  }

  return {
    chainId: chain.chainId,
    keeper: account.address,

    verifyTaker: (request) =>
      verifyEvmTaker({ chainId: chain.chainId, permit2, executor, reactor }, request, adapter.sameAddress),

    async preflight(request, now) {
      const nonce = permit2NonceOf(request);
      const side = { token: getAddress(request.sellToken), taker: getAddress(request.taker), permit2, nonce };
      const call = callOf(request);
      const gas = fillGasLimit(chain.gasFee.units, request.signing);
      const simulated = { from: account.address, to: call.to, data: call.data };
      // One batch, one round trip: the taker's side and the simulation at the fill's gas limit see the
      // same block (docs/reliability.md, "Blame"); the simulation counts only once the taker's side is ready.
      const answers = await rpcBatch(chain.rpcUrl, "checking the fill", [
        ...takerSideCalls(side),
        { method: "eth_call", params: [{ ...simulated, gas: toHex(gas) }, "latest"] },
      ]);
      const readiness = takerReadiness({
        funds: takerFundsOf(answers.slice(0, 3), nonce),
        takerPays: BigInt(request.takerPays),
        permit: request.permit,
        now,
        token: adapter.token(request.sellToken)?.symbol ?? request.sellToken,
      });
      const waiting = notReady(readiness);
      if (waiting) return waiting;
      const simulation = answers[3];
      if (simulation?.ok) return { kind: "prepared", fill: { call, gas } };
      // A revert that names its reason says whose doing it is.
      if (simulation?.data && simulation.data !== "0x") return outcomeOfData(simulation.data, request);
      // One that names none may have run out of gas: simulated again without the limit, and estimated.
      return estimated(simulated, gas, call, request);
    },

    async ready() {
      await Promise.all([cursor.ready(), fees.ready()]);
    },

    async sign(request, fill, record) {
      // Both kept in memory after `ready`: no RPC here, but for a wallet's very first use.
      const nonce = await cursor.peek();
      const { call, gas } = fill;
      const raw = await signCall(nonce, gas, call.to as Address, call.data as Hex, await feesNow());
      const tx: SignedFill = { hash: keccak256(raw), raw, nonce, call, request };
      cursor.take(nonce, () => record(tx));
      return tx;
    },

    async release(tx, forget) {
      // Nothing was handed out after it: the wallet's next transaction takes the nonce again.
      if (nonces.next(nonceKey) === tx.nonce + 1) return cursor.forget(tx.nonce, forget);
      // A later transaction of the wallet waits on this nonce: a transfer of nothing to itself takes it.
      await gaps.fill(tx.nonce, forget);
    },

    fillGaps: () => gaps.resend(),

    gapOpen: () => gaps.open,

    broadcast,

    async recover(tx) {
      return (await presence(tx.hash)) === "known" ? { status: "known" } : broadcast(tx);
    },

    async statuses(txs) {
      const receipts = await evmReceipts(
        chain.rpcUrl,
        { executor, reactor },
        txs.map((tx) => tx.hash),
        adapter.sameAddress,
      );
      return txs.map((tx, i) => () => statusOf(tx, receipts[i] ?? null));
    },

    replacement: {
      afterMs: chain.replacement.afterSeconds * 1000,
      maxBumps: chain.replacement.maxBumps,
    },

    async replace(tx) {
      const before = parseTransaction(tx.raw as Hex);
      const raised = raisedFees(before, await fees.current(), chain.replacement.bumpPercent);
      const raw = await signCall(tx.nonce, before.gas, tx.call.to as Address, tx.call.data as Hex, raised);
      return { ...tx, hash: keccak256(raw), raw };
    },

    async head() {
      return Number(await rpc("reading the block number", () => client.getBlockNumber({ cacheTime: 0 })));
    },

    isFinal: (block, head) => isFinal(block, head, chain.finalityConfirmations),
  };
}
