/**
 * Deploys the relay's settlement contracts onto any EVM chain (docs/deploy.md, step 6), against
 * a Permit2 already there (Uniswap's canonical one on public chains). Node only: it carries bytecode.
 */
import { type Address, createPublicClient, createWalletClient, defineChain, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { feeControllerBytecode } from "../../contracts/out/fee-controller";
import { limitReactorBytecode } from "../../contracts/out/limit-reactor";
import { rfqExecutorBytecode } from "../../contracts/out/rfq-executor";
import { validationBytecode } from "../../contracts/out/validation";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { validationAbi } from "../../src/chains/evm/abi/validation";

/** Uniswap's Permit2, at the same address on every chain it is deployed to. */
export const CANONICAL_PERMIT2: Address = "0x000000000022D473030F116dDEE9F6B43aC78BA3";

export interface ChainDeployment {
  chainId: number;
  permit2: Address;
  validation: Address;
  feeController: Address;
  executor: Address;
  reactor: Address;
}

export interface ChainDeployOptions {
  rpcUrl: string;
  /** Pays for the deployment; owns the contracts unless `owner` is given. */
  deployerKey: Hex;
  /** The tokens the validation contract allows (both sides of every corridor). */
  tokens: Address[];
  /** The keeper wallets the executor and the reactor allow (every address of `KEEPER_PRIVATE_KEY`). */
  keepers: Address[];
  /** The protocol fee in bps; the chain's `fee.bps` in `RELAY_CONFIG` must be the same. */
  feeBps: number;
  /** Where forwarded fees go. */
  treasury: Address;
  /** Who owns the contracts (keeper lists, tokens, fee); default the deployer. */
  owner?: Address;
  /** Default the canonical Permit2; it must have code on the chain. */
  permit2?: Address;
}

/** Deploys validation, fee controller, executor and reactor, each set up by its constructor; waits for each. */
export async function deployToChain(options: ChainDeployOptions): Promise<ChainDeployment> {
  const account = privateKeyToAccount(options.deployerKey);
  const probe = createPublicClient({ transport: http(options.rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "native", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(options.rpcUrl) });
  const walletClient = createWalletClient({ account, chain, transport: http(options.rpcUrl) });
  const permit2 = getAddress(options.permit2 ?? CANONICAL_PERMIT2);
  if (!(await publicClient.getCode({ address: permit2 }))) {
    throw new Error(`no contract at the Permit2 address ${permit2} on chain ${chainId}; pass --permit2`);
  }
  const owner = options.owner ?? account.address;
  const deployed = async (name: string, hash: Promise<Hex>): Promise<Address> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying ${name} failed`);
    return getAddress(receipt.contractAddress);
  };

  const validation = await deployed(
    "validation",
    walletClient.deployContract({ abi: validationAbi, bytecode: validationBytecode, args: [owner, options.tokens] }),
  );
  const feeController = await deployed(
    "feeController",
    walletClient.deployContract({
      abi: feeControllerAbi,
      bytecode: feeControllerBytecode,
      args: [owner, options.treasury, options.feeBps],
    }),
  );
  const settlementArgs = [owner, permit2, validation, feeController, options.keepers] as const;
  const executor = await deployed(
    "executor",
    walletClient.deployContract({ abi: rfqExecutorAbi, bytecode: rfqExecutorBytecode, args: settlementArgs }),
  );
  const reactor = await deployed(
    "reactor",
    walletClient.deployContract({ abi: limitReactorAbi, bytecode: limitReactorBytecode, args: settlementArgs }),
  );
  return { chainId, permit2, validation, feeController, executor, reactor };
}

export interface SetKeeperOptions {
  rpcUrl: string;
  /** The contracts' owner. */
  ownerKey: Hex;
  /** The executor and the reactor (each keeps its own keeper list). */
  contracts: Address[];
  keeper: Address;
  allowed: boolean;
}

/** Allows or removes a keeper wallet on each contract (docs/operations.md, "Rotate a keeper key"); waits for each. */
export async function setKeeper(options: SetKeeperOptions): Promise<void> {
  const account = privateKeyToAccount(options.ownerKey);
  const probe = createPublicClient({ transport: http(options.rpcUrl) });
  const chain = defineChain({
    id: await probe.getChainId(),
    name: "chain",
    nativeCurrency: { name: "native", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const walletClient = createWalletClient({ account, chain, transport: http(options.rpcUrl) });
  for (const address of options.contracts) {
    // The executor and the reactor share `setKeeper(address,bool)`; the executor's ABI serves both.
    const hash = await walletClient.writeContract({
      address,
      abi: rfqExecutorAbi,
      functionName: "setKeeper",
      args: [options.keeper, options.allowed],
    });
    const receipt = await probe.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`setKeeper on ${address} failed`);
  }
}
