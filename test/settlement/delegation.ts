import { type Address, concat, getAddress, type Hex, type PrivateKeyAccount, zeroAddress } from "viem";
import { refusingWalletBytecode } from "../../contracts/out/refusing-wallet";
import { refusingWalletAbi } from "../../src/chains/evm/abi/refusing-wallet";
import { chainClient, deployer, walletOf } from "./helpers";

/**
 * EIP-7702 on anvil: an EOA that delegates its account to code whose ERC-1271 check refuses every
 * signature (contracts/src/test/RefusingWallet.sol). Contracts that verify through OpenZeppelin's
 * SignatureChecker then ask the account's code instead of its key, and refuse what the key signed.
 */

let deployed: Promise<Address> | null = null;

/** The refusing wallet, deployed once per file. */
export function refusingWallet(): Promise<Address> {
  deployed ??= (async () => {
    const hash = await deployer.deployContract({ abi: refusingWalletAbi, bytecode: refusingWalletBytecode });
    return getAddress((await chainClient.waitForTransactionReceipt({ hash })).contractAddress ?? "");
  })();
  return deployed;
}

/**
 * Sends `account`'s delegation to the refusing wallet: its authorization, carried by a type-4 transaction
 * the deployer sends (with `tip` when given, and a gas limit of its own, so it can be sent while blocks
 * wait). Returns the transaction's hash, not waiting for it.
 */
export async function sendDelegation(account: PrivateKeyAccount, tip?: bigint): Promise<Hex> {
  const authorization = await walletOf(account).signAuthorization({ contractAddress: await refusingWallet() });
  const fees = tip === undefined ? {} : { maxPriorityFeePerGas: tip, maxFeePerGas: tip * 2n };
  return deployer.sendTransaction({ authorizationList: [authorization], to: zeroAddress, gas: 100_000n, ...fees });
}

/** Whether `account`'s code is the delegation designator pointing at the refusing wallet. */
export async function delegatedToRefusingWallet(account: Address): Promise<boolean> {
  const designator = concat(["0xef0100", await refusingWallet()]).toLowerCase();
  return (await chainClient.getCode({ address: account }))?.toLowerCase() === designator;
}

/** `account` delegates to the refusing wallet, mined before this returns. */
export async function delegateToRefusingWallet(account: PrivateKeyAccount): Promise<void> {
  const hash = await sendDelegation(account);
  const receipt = await chainClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== "success" || !(await delegatedToRefusingWallet(account.address))) {
    throw new Error(`${account.address} did not delegate to the refusing wallet`);
  }
}
