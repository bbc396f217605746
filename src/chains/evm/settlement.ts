import {
  type Abi,
  type Address,
  BaseError,
  createPublicClient,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  HttpRequestError,
  http,
  keccak256,
  parseEventLogs,
  RpcRequestError,
  recoverTypedDataAddress,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import type { EvmChain } from "../../config/schema";
import {
  type BroadcastResult,
  type ChainSettler,
  ChainUnavailableError,
  type FillCall,
  type FillEvent,
  type FillRequest,
  type GasPricing,
  type Simulation,
  type TxReceipt,
} from "../settler";
import { permit2Abi } from "./abi/permit2";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import { testTokenAbi } from "./abi/test-token";
import { validationAbi } from "./abi/validation";
import { type DecodedRevert, refusalReason, revertOutcome } from "./revert-reasons";
import { bytes32ToQuoteId, type RfqOrder, takerTypedData } from "./typed-data";

/** How long one RPC call may take before the chain counts as unavailable. */
const RPC_TIMEOUT_MS = 8_000;
/** Head room over the gas estimate, in percent. */
const GAS_HEADROOM_PERCENT = 20n;

/** Every error a fill can revert with, wherever it is raised, once each, so revert data decodes by name. */
const fillErrorsAbi: Abi = (() => {
  const seen = new Set<string>();
  return [...rfqExecutorAbi, ...permit2Abi, ...validationAbi, ...testTokenAbi].filter((item) => {
    if (item.type !== "error" || seen.has(item.name)) return false;
    seen.add(item.name);
    return true;
  });
})();

const uint = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

/** The part of a quote's stored `signing` the keeper needs: the Permit2 message and the resolver's signature. */
const storedSigning = z.object({
  typedData: z.object({
    message: z.object({
      permitted: z.object({ token: address, amount: uint }),
      spender: address,
      nonce: uint,
      deadline: uint,
      witness: z.object({
        quoteId: hex,
        resolver: address,
        recipient: address,
        buyToken: address,
        received: uint,
        fee: uint,
        gasFeeToken: address,
        gasFee: uint,
        deadline: uint,
      }),
    }),
  }),
  resolverSignature: hex,
});

interface ParsedSigning {
  order: RfqOrder;
  permit: { permitted: { token: Address; amount: bigint }; nonce: bigint; deadline: bigint };
  resolverSignature: Hex;
}

function parseSigning(signing: unknown): ParsedSigning {
  const result = storedSigning.safeParse(signing);
  if (!result.success) throw new Error(`the quote's signing data is malformed: ${result.error.message}`);
  const { message } = result.data.typedData;
  const w = message.witness;
  return {
    order: {
      quoteId: w.quoteId as Hex,
      resolver: getAddress(w.resolver),
      recipient: getAddress(w.recipient),
      buyToken: getAddress(w.buyToken),
      received: w.received,
      fee: w.fee,
      gasFeeToken: getAddress(w.gasFeeToken),
      gasFee: w.gasFee,
      deadline: w.deadline,
    },
    permit: {
      permitted: { token: getAddress(message.permitted.token), amount: message.permitted.amount },
      nonce: message.nonce,
      deadline: message.deadline,
    },
    resolverSignature: result.data.resolverSignature as Hex,
  };
}

/** Whether an error means the RPC did not answer, rather than answering no. */
function isTransportError(e: unknown): boolean {
  if (e instanceof BaseError) return Boolean(e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError));
  return e instanceof TypeError;
}

/** Runs an RPC read; a transport failure becomes ChainUnavailableError. */
async function rpc<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isTransportError(e)) throw new ChainUnavailableError(`${what}: ${shortMessage(e)}`);
    throw e;
  }
}

function shortMessage(e: unknown): string {
  if (e instanceof BaseError) return e.shortMessage;
  return e instanceof Error ? e.message : String(e);
}

/** Revert data carried anywhere in a failed call's error chain. */
function revertData(e: unknown): Hex | null {
  if (!(e instanceof BaseError)) return null;
  const found = e.walk((x) => {
    const data = (x as { data?: unknown }).data;
    return typeof data === "string" && /^0x[0-9a-fA-F]{8,}$/.test(data);
  }) as { data?: string } | null;
  return (found?.data as Hex | undefined) ?? null;
}

function decodeRevert(data: Hex | null): DecodedRevert | null {
  if (!data) return null;
  try {
    const decoded = decodeErrorResult({ abi: fillErrorsAbi, data });
    return { name: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return null;
  }
}

/** Settlement on one EVM chain through its JSON-RPC endpoint (fetch-based, so it runs in workerd). */
export function evmSettler(chain: EvmChain, keeperKey: Hex): ChainSettler {
  const client = createPublicClient({
    transport: http(chain.rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS }),
  });
  const account = privateKeyToAccount(keeperKey);
  const executor = getAddress(chain.executor);
  const permit2 = getAddress(chain.permit2);

  const parties = (request: FillRequest, parsed: ParsedSigning) => ({
    taker: request.taker,
    resolver: parsed.order.resolver,
    permit2,
    executor,
  });

  const fillCall = (request: FillRequest): FillCall => {
    const { order, permit, resolverSignature } = parseSigning(request.signing);
    const taker = getAddress(request.taker);
    const signature = request.signature as Hex;
    const data = request.permit
      ? encodeFunctionData({
          abi: rfqExecutorAbi,
          functionName: "fillWithPermit",
          args: [
            order,
            permit,
            taker,
            signature,
            resolverSignature,
            {
              value: BigInt(request.permit.value),
              deadline: BigInt(request.permit.deadline),
              v: request.permit.v,
              r: request.permit.r as Hex,
              s: request.permit.s as Hex,
            },
          ],
        })
      : encodeFunctionData({
          abi: rfqExecutorAbi,
          functionName: "fill",
          args: [order, permit, taker, signature, resolverSignature],
        });
    return { to: executor, data };
  };

  const presence = async (hash: string) => {
    try {
      await rpc("looking up a transaction", () => client.getTransaction({ hash: hash as Hex }));
      return "known" as const;
    } catch (e) {
      if (e instanceof TransactionNotFoundError) return "unknown" as const;
      throw e;
    }
  };

  return {
    chainId: chain.chainId,
    keeper: account.address,

    async verifyTakerSignature(request) {
      if (!/^0x[0-9a-fA-F]{130}$/.test(request.signature)) return false;
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
        return signer.toLowerCase() === request.taker.toLowerCase();
      } catch {
        return false;
      }
    },

    fillCall,

    async takerFunds(request) {
      const token = getAddress(request.sellToken);
      const taker = getAddress(request.taker);
      const permit2Allowance = await rpc("reading the taker's Permit2 allowance", () =>
        client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [taker, permit2] }),
      );
      return { permit2Allowance };
    },

    async simulate(call, request): Promise<Simulation> {
      const tx = { account: account.address, to: call.to as Address, data: call.data as Hex };
      try {
        await client.call(tx);
      } catch (e) {
        if (isTransportError(e)) throw new ChainUnavailableError(`simulating: ${shortMessage(e)}`);
        return {
          ok: false,
          ...revertOutcome(decodeRevert(revertData(e)), parties(request, parseSigning(request.signing))),
        };
      }
      const estimate = await rpc("estimating gas", () => client.estimateGas(tx));
      return { ok: true, gas: estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n };
    },

    async accountState() {
      const [pendingNonce, minedNonce, pricing] = await rpc("reading the keeper's account", () =>
        Promise.all([
          client.getTransactionCount({ address: account.address, blockTag: "pending" }),
          client.getTransactionCount({ address: account.address, blockTag: "latest" }),
          gasPricing(),
        ]),
      );
      return { pendingNonce, minedNonce, pricing };
    },

    async sign(call, gas, nonce, pricing) {
      const common = { chainId: chain.chainId, nonce, gas, to: call.to as Address, data: call.data as Hex, value: 0n };
      const raw =
        "gasPrice" in pricing
          ? await account.signTransaction({ ...common, type: "legacy", gasPrice: pricing.gasPrice })
          : await account.signTransaction({ ...common, type: "eip1559", ...pricing });
      return { raw, hash: keccak256(raw), nonce };
    },

    async broadcast(tx): Promise<BroadcastResult> {
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
    },

    presence,

    async receipt(hash): Promise<TxReceipt | null> {
      let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
      try {
        receipt = await rpc("reading a receipt", () => client.getTransactionReceipt({ hash: hash as Hex }));
      } catch (e) {
        if (e instanceof TransactionReceiptNotFoundError) return null;
        throw e;
      }
      const block = await rpc("reading a block", () => client.getBlock({ blockNumber: receipt.blockNumber }));
      const logs = receipt.logs.filter((l) => l.address.toLowerCase() === executor.toLowerCase());
      const fills = parseEventLogs({ abi: rfqExecutorAbi, eventName: "RfqFilled", logs }).map(
        (log): FillEvent => ({ ...log.args, quoteId: bytes32ToQuoteId(log.args.quoteId), logIndex: log.logIndex }),
      );
      return {
        hash,
        status: receipt.status,
        block: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
        gasUsed: receipt.gasUsed,
        from: getAddress(receipt.from),
        fills,
      };
    },

    async blockNumber() {
      return Number(await rpc("reading the block number", () => client.getBlockNumber({ cacheTime: 0 })));
    },

    async revertReason(call, block, request) {
      try {
        await client.call({
          account: account.address,
          to: call.to as Address,
          data: call.data as Hex,
          blockNumber: BigInt(Math.max(0, block - 1)),
        });
        return null;
      } catch (e) {
        if (isTransportError(e)) return null;
        const outcome = revertOutcome(decodeRevert(revertData(e)), parties(request, parseSigning(request.signing)));
        return outcome.kind === "bad_signature" ? "taker:bad_signature" : outcome.reason;
      }
    },
  };

  async function gasPricing(): Promise<GasPricing> {
    try {
      const fees = await client.estimateFeesPerGas();
      return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    } catch (e) {
      if (isTransportError(e)) throw e;
      // A chain without EIP-1559 blocks.
      return { gasPrice: await client.getGasPrice() };
    }
  }
}
