import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hashTypedData,
  type LocalAccount,
  maxUint256,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { accountDelegateBytecode } from "../../contracts/out/account-delegate";
import { ownerWalletBytecode } from "../../contracts/out/owner-wallet";
import { accountDelegateAbi } from "../../src/chains/evm/abi/account-delegate";
import { ownerWalletAbi } from "../../src/chains/evm/abi/owner-wallet";
import { type JsonTypedData, typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { chainClient, deployer, EVM, mint, newTaker, testClient, walletOf } from "./helpers";

/**
 * Takers whose addresses have code, on anvil: a wallet in the manner of a one-owner Safe
 * (contracts/src/test/OwnerWallet.sol) and an EOA delegated by EIP-7702 to a smart-account delegate
 * (contracts/src/test/AccountDelegate.sol). Each signs a hash by wrapping it in its own EIP-712 message,
 * so neither signature is an ECDSA signature of the taker's address over the hash: Permit2 accepts them
 * through the address's code alone.
 */

async function mined(hash: Hex): Promise<void> {
  const receipt = await chainClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} failed`);
}

/** The digest Permit2 checks a quote's signature against: that of its typedData. */
export const digestOf = (typedData: Record<string, unknown>): Hex =>
  hashTypedData(typedDataFromJson(typedData as JsonTypedData) as Parameters<typeof hashTypedData>[0]);

/** A one-owner wallet holding cNGN and USDC, Permit2 approved for cNGN by its owner's call. */
export async function ownerWallet(): Promise<{ owner: LocalAccount; wallet: Address }> {
  const owner = privateKeyToAccount(generatePrivateKey());
  await testClient.setBalance({ address: owner.address, value: parseEther("1") });
  const hash = await deployer.deployContract({
    abi: ownerWalletAbi,
    bytecode: ownerWalletBytecode,
    args: [owner.address],
  });
  const wallet = getAddress((await chainClient.waitForTransactionReceipt({ hash })).contractAddress ?? "");
  await mint(wallet, 10_000_000_000n);
  const approval = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [EVM.permit2, maxUint256] });
  await mined(
    await walletOf(owner).writeContract({
      address: wallet,
      abi: ownerWalletAbi,
      functionName: "execute",
      args: [EVM.cngn, 0n, approval],
    }),
  );
  return { owner, wallet };
}

/** The owner's signature of `hash` for `wallet`, as a Safe owner signs it: over the wallet's `SafeMessage`. */
export const signAsOwner = (owner: LocalAccount, wallet: Address, hash: Hex): Promise<Hex> =>
  owner.signTypedData({
    domain: { chainId: EVM.chainId, verifyingContract: wallet },
    types: { SafeMessage: [{ name: "message", type: "bytes" }] },
    primaryType: "SafeMessage",
    message: { message: hash },
  });

let delegate: Promise<Address> | null = null;

/** The smart-account delegate, deployed once per file. */
function accountDelegate(): Promise<Address> {
  delegate ??= (async () => {
    const hash = await deployer.deployContract({ abi: accountDelegateAbi, bytecode: accountDelegateBytecode });
    return getAddress((await chainClient.waitForTransactionReceipt({ hash })).contractAddress ?? "");
  })();
  return delegate;
}

/**
 * A fresh taker (ETH, both tokens, Permit2 approved) whose EOA delegates to the smart-account delegate by a
 * real EIP-7702 (type 4) transaction the deployer sends; its code is then `0xef0100 ‖ delegate`.
 */
export async function delegatedTaker(): Promise<LocalAccount> {
  const account = await newTaker();
  const contractAddress = await accountDelegate();
  const authorization = await walletOf(account).signAuthorization({ contractAddress });
  await mined(await deployer.sendTransaction({ authorizationList: [authorization], to: deployer.account.address }));
  const code = await chainClient.getCode({ address: account.address });
  if (code?.toLowerCase() !== `0xef0100${contractAddress.slice(2).toLowerCase()}`) {
    throw new Error(`${account.address} did not delegate to the smart-account delegate`);
  }
  return account;
}

/** The delegated account's signature of `hash`, as its delegate asks: over the account's `AccountMessage`. */
export const signAsAccount = (account: LocalAccount, hash: Hex): Promise<Hex> =>
  account.signTypedData({
    domain: { chainId: EVM.chainId, verifyingContract: account.address },
    types: { AccountMessage: [{ name: "hash", type: "bytes32" }] },
    primaryType: "AccountMessage",
    message: { hash },
  });
