import {
  type Address,
  formatBlock,
  formatTransactionReceipt,
  getAddress,
  parseEventLogs,
  type RpcBlock,
  type RpcTransactionReceipt,
  type TransactionReceipt,
  toHex,
} from "viem";
import { ChainUnavailableError, type FillEvent, type TxReceipt } from "../settler";
import { limitReactorAbi } from "./abi/limit-reactor";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import { type RpcAnswer, rpcBatch } from "./call-batch";
import { bytes32ToQuoteId } from "./typed-data";

/** The settlement contracts whose fill events a receipt is read for. */
export interface FillContracts {
  executor: Address;
  reactor: Address;
}

/** A batch answer's result, or `ChainUnavailableError` naming `what` when the node refused that request. */
function resultOf(answer: RpcAnswer | undefined, what: string): unknown {
  if (answer?.ok) return answer.result;
  throw new ChainUnavailableError(`${what}: ${answer?.error ?? "no answer"}`);
}

/**
 * The receipts of `hashes`, with the fills each holds, in two round trips however many there are: one
 * batch of `eth_getTransactionReceipt`, then one of the blocks the mined ones landed in (for their time).
 * Null for a transaction that is not mined, or whose block the node no longer has (read again next pass).
 */
export async function evmReceipts(
  rpcUrl: string,
  contracts: FillContracts,
  hashes: readonly string[],
  sameAddress: (a: string, b: string) => boolean,
): Promise<(TxReceipt | null)[]> {
  if (hashes.length === 0) return [];
  const answers = await rpcBatch(
    rpcUrl,
    "reading receipts",
    hashes.map((hash) => ({ method: "eth_getTransactionReceipt", params: [hash] })),
  );
  const mined = answers.map((answer) => {
    const raw = resultOf(answer, "reading a receipt");
    return raw ? formatTransactionReceipt(raw as RpcTransactionReceipt) : null;
  });
  const blocks = [...new Set(mined.flatMap((m) => (m ? [m.blockNumber] : [])))];
  const blockAnswers = await rpcBatch(
    rpcUrl,
    "reading blocks",
    blocks.map((n) => ({ method: "eth_getBlockByNumber", params: [toHex(n), false] })),
  );
  const times = new Map<bigint, bigint>();
  blocks.forEach((n, i) => {
    const raw = resultOf(blockAnswers[i], "reading a block");
    const timestamp = raw ? formatBlock(raw as RpcBlock).timestamp : null;
    if (timestamp !== null) times.set(n, timestamp);
  });
  return mined.map((m, i) => {
    const time = m ? times.get(m.blockNumber) : undefined;
    return m && time !== undefined ? receiptOf(m, hashes[i] as string, time, contracts, sameAddress) : null;
  });
}

/** A mined transaction's receipt as the indexer reads it: the executor's `RfqFilled` and the reactor's `LimitFilled` events, read only from those contracts. */
function receiptOf(
  mined: TransactionReceipt,
  hash: string,
  timestamp: bigint,
  contracts: FillContracts,
  sameAddress: (a: string, b: string) => boolean,
): TxReceipt {
  const of = (contract: Address) => mined.logs.filter((l) => sameAddress(l.address, contract));
  const events = [
    ...parseEventLogs({ abi: rfqExecutorAbi, eventName: "RfqFilled", logs: of(contracts.executor) }),
    ...parseEventLogs({ abi: limitReactorAbi, eventName: "LimitFilled", logs: of(contracts.reactor) }),
  ];
  const fills = events.map(
    (log): FillEvent => ({ ...log.args, quoteId: bytes32ToQuoteId(log.args.quoteId), logIndex: log.logIndex }),
  );
  return {
    hash,
    status: mined.status,
    block: Number(mined.blockNumber),
    blockTime: new Date(Number(timestamp) * 1000).toISOString(),
    gasUsed: mined.gasUsed,
    keeperSpent: mined.gasUsed * mined.effectiveGasPrice,
    from: getAddress(mined.from),
    fills,
  };
}
