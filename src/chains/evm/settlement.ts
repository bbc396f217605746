import {
  type Address,
  BaseError,
  createPublicClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  parseTransaction,
  RpcRequestError,
  recoverTypedDataAddress,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { EvmChain } from "../../config/schema";
import {
  type BroadcastResult,
  type ChainSettler,
  ChainUnavailableError,
  type FillCall,
  type FillEvent,
  type FillRequest,
  type NonceStore,
  type Settlement,
  type SignedFill,
  settlerLog,
  type TxReceipt,
} from "../settler";
import { limitReactorAbi } from "./abi/limit-reactor";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import { evmAdapter } from "./adapter";
import { FeeCache } from "./fee-cache";
import { isFinal } from "./finality";
import { parseKeeperKeys } from "./keeper-key";
import { isLimitSigning, limitCall, limitTakerTyped, parseLimitSigning } from "./limit-call";
import { NonceCursor } from "./nonces";
import { refusalReason, revertOutcome } from "./revert-reasons";
import { decodedRevert, isTransportError, rpc, shortMessage } from "./rpc";
import { fillCall, parseSigning } from "./stored-signing";
import { takerReadiness } from "./taker-readiness";
import { bytes32ToQuoteId, takerTypedData } from "./typed-data";

/** How long one RPC call may take before the chain counts as unavailable. */
const RPC_TIMEOUT_MS = 8_000;
/** Head room over the gas estimate, in percent. */
const GAS_HEADROOM_PERCENT = 20n;
/** Fee data older than this is read again in the background when a submission comes (docs/settlement.md). */
export const FEE_REFRESH_MS = 2_000;
/** Fee data older than this is waited for before signing: a keeper idle for a while reads afresh. */
export const FEE_MAX_AGE_MS = 15_000;

type GasPricing = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

const evmClient = (chain: EvmChain) =>
  createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS }) });

type EvmClient = ReturnType<typeof evmClient>;

/** What the wallets of one chain share: the RPC client, and the chain's fee data kept fresh. */
interface ChainShared {
  client: EvmClient;
  fees: FeeCache<GasPricing>;
}

function chainShared(chain: EvmChain, now: () => number = Date.now): ChainShared {
  const client = evmClient(chain);
  const read = (): Promise<GasPricing> =>
    rpc("reading the chain's fees", async () => {
      try {
        const fees = await client.estimateFeesPerGas();
        return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
      } catch (e) {
        if (isTransportError(e)) throw e;
        // A chain without EIP-1559 blocks.
        return { gasPrice: await client.getGasPrice() };
      }
    });
  const fees = new FeeCache(read, now, { refreshMs: FEE_REFRESH_MS, maxAgeMs: FEE_MAX_AGE_MS }, (e) =>
    log("fee_refresh_failed", { chainId: chain.chainId, error: shortMessage(e) }),
  );
  return { client, fees };
}

const log = settlerLog;

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * EVM settlement: the taker's Permit2 signature in `signature`, the keeper's hex keys in
 * `KEEPER_PRIVATE_KEY` (one, or a pool separated by commas: docs/settlement.md, "The wallet pool").
 */
export function evmSettlement(chain: EvmChain): Settlement {
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
export function evmSettler(
  chain: EvmChain,
  keeperKey: Hex,
  nonces: NonceStore,
  shared: ChainShared = chainShared(chain),
): ChainSettler {
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

  async function receipt(hash: string): Promise<TxReceipt | null> {
    let mined: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
    try {
      mined = await rpc("reading a receipt", () => client.getTransactionReceipt({ hash: hash as Hex }));
    } catch (e) {
      if (e instanceof TransactionReceiptNotFoundError) return null;
      throw e;
    }
    const block = await rpc("reading a block", () => client.getBlock({ blockNumber: mined.blockNumber }));
    const of = (contract: Address) => mined.logs.filter((l) => adapter.sameAddress(l.address, contract));
    const events = [
      ...parseEventLogs({ abi: rfqExecutorAbi, eventName: "RfqFilled", logs: of(executor) }),
      ...parseEventLogs({ abi: limitReactorAbi, eventName: "LimitFilled", logs: of(reactor) }),
    ];
    const fills = events.map(
      (log): FillEvent => ({ ...log.args, quoteId: bytes32ToQuoteId(log.args.quoteId), logIndex: log.logIndex }),
    );
    return {
      hash,
      status: mined.status,
      block: Number(mined.blockNumber),
      blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
      gasUsed: mined.gasUsed,
      from: getAddress(mined.from),
      fills,
    };
  }

  /** Why a mined transaction reverted, replayed as a call on the block before it; null when unknown. */
  async function revertReason(tx: SignedFill, block: number): Promise<string | null> {
    try {
      await client.call({ ...callFrom(tx.call), blockNumber: BigInt(Math.max(0, block - 1)) });
      return null;
    } catch (e) {
      if (isTransportError(e)) return null;
      const outcome = outcomeOf(e, tx.request);
      return outcome.kind === "bad_signature" ? "taker:bad_signature" : outcome.reason;
    }
  }

  return {
    chainId: chain.chainId,
    keeper: account.address,

    async verifyTaker(request) {
      const refused = {
        ok: false,
        code: "bad_signature",
        reason: "not the taker's signature over the typedData",
      } as const;
      if (!/^0x[0-9a-fA-F]{130}$/.test(request.signature)) return refused;
      if (isLimitSigning(request.signing)) {
        const limit = parseLimitSigning(request.quoteId, request.signing);
        const typed = limitTakerTyped(chain.chainId, { permit2, reactor }, limit);
        try {
          const signer = await recoverTypedDataAddress({ ...typed, signature: request.signature as Hex });
          return adapter.sameAddress(signer, request.taker) ? { ok: true } : refused;
        } catch {
          return refused;
        }
      }
      const { order, permit } = parseSigning(request.signing);
      const typed = takerTypedData({
        chainId: chain.chainId,
        permit2,
        executor,
        sellToken: permit.permitted.token,
        takerPays: permit.permitted.amount,
        nonce: permit.nonce,
        deadline: permit.deadline,
        order,
      });
      try {
        const signer = await recoverTypedDataAddress({ ...typed, signature: request.signature as Hex });
        return adapter.sameAddress(signer, request.taker) ? { ok: true } : refused;
      } catch {
        return refused;
      }
    },

    async readiness(request, now) {
      const token = getAddress(request.sellToken);
      const taker = getAddress(request.taker);
      const permit2Allowance = await rpc("reading the taker's Permit2 allowance", () =>
        client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [taker, permit2] }),
      );
      return takerReadiness({
        funds: { permit2Allowance },
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
      const estimate = await rpc("estimating gas", () => client.estimateGas(callFrom(call)));
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
      const mined = await receipt(tx.hash);
      if (mined?.status === "reverted") {
        return {
          state: "reverted",
          reason: (await revertReason(tx, mined.block)) ?? "reverted",
          gasUsed: mined.gasUsed,
        };
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
      const pricing = await fees.current();
      const now =
        "gasPrice" in pricing
          ? { fee: pricing.gasPrice, tip: pricing.gasPrice }
          : {
              fee: pricing.maxFeePerGas,
              tip: pricing.maxPriorityFeePerGas,
            };
      // At least `bumpPercent` over what it replaces (nodes refuse a replacement that is not), and never
      // under what the chain asks now.
      const raised = (was: bigint | undefined, current: bigint) =>
        maxBig((was ?? 0n) + ((was ?? 0n) * BigInt(chain.replacement.bumpPercent) + 99n) / 100n, current);
      const common = {
        chainId: chain.chainId,
        nonce: tx.nonce,
        gas: before.gas,
        to: tx.call.to as Address,
        data: tx.call.data as Hex,
        value: 0n,
      };
      const raw =
        before.type === "legacy"
          ? await account.signTransaction({ ...common, type: "legacy", gasPrice: raised(before.gasPrice, now.fee) })
          : await account.signTransaction({
              ...common,
              type: "eip1559",
              maxFeePerGas: raised(before.maxFeePerGas, now.fee),
              maxPriorityFeePerGas: raised(before.maxPriorityFeePerGas, now.tip),
            });
      return { ...tx, hash: keccak256(raw), raw };
    },

    async head() {
      return Number(await rpc("reading the block number", () => client.getBlockNumber({ cacheTime: 0 })));
    },

    isFinal: (block, head) => isFinal(block, head, chain.finalityConfirmations),
  };
}
