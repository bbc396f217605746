import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, numberToHex } from "viem";
import { blacklistTokenBytecode } from "../../contracts/out/blacklist-token";
import { blacklistTokenAbi } from "../../src/chains/evm/abi/blacklist-token";
import { chainClient, deployer, EVM, testClient } from "./helpers";

/** Where BlacklistToken (contracts/src/test/BlacklistToken.sol) keeps `blacklisted`: after ERC20's five slots and Ownable's one. */
const BLACKLISTED_SLOT = 6n;

/**
 * The corridor's USDC made to refuse transfers to and from the accounts a test names, as a stablecoin's
 * blacklist does: its code swapped for BlacklistToken's, which keeps ERC20's balances and allowances in
 * the same slots (TestToken's permit and decimals are gone meanwhile). `restore` puts TestToken's code back.
 */
export async function blacklistingUsdc() {
  const original = await chainClient.getCode({ address: EVM.usdc });
  if (!original) throw new Error("USDC has no code");
  const deployed = await chainClient.waitForTransactionReceipt({
    hash: await deployer.deployContract({
      abi: blacklistTokenAbi,
      bytecode: blacklistTokenBytecode,
      args: [deployer.account.address],
    }),
  });
  const code = await chainClient.getCode({ address: getAddress(deployed.contractAddress ?? "") });
  if (!code) throw new Error("BlacklistToken has no code");
  await testClient.setCode({ address: EVM.usdc, bytecode: code });
  const slotOf = (account: Address): Hex =>
    keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [account, BLACKLISTED_SLOT]));
  const set = async (account: Address, value: boolean) => {
    await testClient.setStorageAt({
      address: EVM.usdc,
      index: slotOf(account),
      value: numberToHex(value ? 1 : 0, { size: 32 }),
    });
    const now = await chainClient.readContract({
      address: EVM.usdc,
      abi: blacklistTokenAbi,
      functionName: "blacklisted",
      args: [account],
    });
    if (now !== value) throw new Error(`USDC's blacklist of ${account} is ${now}, not ${value}`);
  };
  return {
    refuse: (account: Address) => set(account, true),
    accept: (account: Address) => set(account, false),
    restore: () => testClient.setCode({ address: EVM.usdc, bytecode: original }),
  };
}
