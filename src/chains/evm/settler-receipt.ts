import { type Address, getAddress, type Hex, parseEventLogs, TransactionReceiptNotFoundError } from "viem";
import type { FillEvent, TxReceipt } from "../settler";
import { limitReactorAbi } from "./abi/limit-reactor";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import { rpc } from "./rpc";
import type { EvmClient } from "./settler-client";
import { bytes32ToQuoteId } from "./typed-data";

/**
 * A mined transaction's receipt with the fills it holds: the executor's `RfqFilled` and the reactor's
 * `LimitFilled` events, read only from those contracts. Null while it is not mined.
 */
export async function evmReceipt(
  client: EvmClient,
  contracts: { executor: Address; reactor: Address },
  hash: string,
  sameAddress: (a: string, b: string) => boolean,
): Promise<TxReceipt | null> {
  let mined: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
  try {
    mined = await rpc("reading a receipt", () => client.getTransactionReceipt({ hash: hash as Hex }));
  } catch (e) {
    if (e instanceof TransactionReceiptNotFoundError) return null;
    throw e;
  }
  const block = await rpc("reading a block", () => client.getBlock({ blockNumber: mined.blockNumber }));
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
    blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
    gasUsed: mined.gasUsed,
    keeperSpent: mined.gasUsed * mined.effectiveGasPrice,
    from: getAddress(mined.from),
    fills,
  };
}
