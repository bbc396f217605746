import { type Address, getAddress, type Hex, TransactionNotFoundError } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { EvmChain } from "../../config";
import type { NonceStore } from "../nonce-store";
import { evmAdapter } from "./adapter";
import { rpc } from "./rpc";
import type { ChainShared, EvmClient } from "./settler-client";
import type { TxFees } from "./settler-fees";

/** The addresses a fill from the keeper involves: the executor's and the reactor's calls, and Permit2. */
export interface SettlementContracts {
  executor: Address;
  reactor: Address;
  permit2: Address;
}

/**
 * One keeper wallet on one EVM chain: its key, the chain's contracts, the RPC client and fee data it
 * shares with the pool's other wallets, and its nonce sequence's store.
 */
export interface EvmWallet {
  chain: EvmChain;
  account: PrivateKeyAccount;
  contracts: SettlementContracts;
  adapter: ReturnType<typeof evmAdapter>;
  client: EvmClient;
  fees: ChainShared["fees"];
  nonces: NonceStore;
  /** How the keeper's address is spelled in the nonce store. */
  nonceKey: string;
}

export function evmWallet(chain: EvmChain, keeperKey: Hex, nonces: NonceStore, shared: ChainShared): EvmWallet {
  const account = privateKeyToAccount(keeperKey);
  const contracts = {
    executor: getAddress(chain.executor),
    reactor: getAddress(chain.reactor),
    permit2: getAddress(chain.permit2),
  };
  const adapter = evmAdapter(chain);
  return { chain, account, contracts, adapter, ...shared, nonces, nonceKey: account.address.toLowerCase() };
}

/** The fees of a transaction signed now: the chain's, kept since `ready`, in the transaction's type. */
export async function feesNow(wallet: EvmWallet): Promise<TxFees> {
  const pricing = await wallet.fees.current();
  return "gasPrice" in pricing ? { type: "legacy", gasPrice: pricing.gasPrice } : { type: "eip1559", ...pricing };
}

/** Signs a call from the keeper's wallet that carries no value. */
export const signCall = (
  { account, chain }: EvmWallet,
  nonce: number,
  gas: bigint | undefined,
  to: Address,
  data: Hex,
  txFees: TxFees,
): Promise<Hex> => account.signTransaction({ chainId: chain.chainId, nonce, gas, to, data, value: 0n, ...txFees });

/** How many of the keeper's transactions are mined. */
export const minedNonce = ({ client, account }: EvmWallet) =>
  rpc("reading the keeper's mined nonce", () =>
    client.getTransactionCount({ address: account.address, blockTag: "latest" }),
  );

/** Whether the node knows a transaction (pending or mined). */
export async function presence({ client }: EvmWallet, hash: string): Promise<"known" | "unknown"> {
  try {
    await rpc("looking up a transaction", () => client.getTransaction({ hash: hash as Hex }));
    return "known";
  } catch (e) {
    if (e instanceof TransactionNotFoundError) return "unknown";
    throw e;
  }
}
