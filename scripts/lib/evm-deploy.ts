/**
 * Deploys the settlement contracts onto a local anvil and funds test accounts. Node only (scripts and
 * tests): it carries the contracts' bytecode, which the worker never needs.
 */
import {
  type Account,
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  stringToBytes,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { feeControllerBytecode } from "../../contracts/out/fee-controller";
import { limitReactorBytecode } from "../../contracts/out/limit-reactor";
import { permit2Bytecode } from "../../contracts/out/permit2";
import { rfqExecutorBytecode } from "../../contracts/out/rfq-executor";
import { testTokenBytecode } from "../../contracts/out/test-token";
import { validationBytecode } from "../../contracts/out/validation";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import { localConfig } from "../../src/config/local";
import type { EvmChain } from "../../src/config/schema";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Anvil's dev account `index` (0–9 are funded with ETH at start). */
export function anvilAccount(index: number) {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

/** Anvil's first dev account: every address in the local configuration is one of its deployments. */
export const ANVIL_DEPLOYER_KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** Anvil's dev account #9, the keeper the executor and the reactor allow out of the box. */
export const ANVIL_KEEPER: Address = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
/** Anvil's dev account #9's private key: the local keeper's, and the first wallet of the local pool. */
export const ANVIL_KEEPER_KEY: Hex = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";

/** How many wallets the local keeper pool has (docs/settlement.md, "The wallet pool"). */
export const LOCAL_KEEPER_POOL_SIZE = 4;

/**
 * The private keys of the local keeper pool: anvil's account #9, then keys derived from a fixed seed
 * (`keccak256("relay-local-keeper:<n>")`, n = 2…), outside anvil's mnemonic so that no test or benchmark
 * account is one of them. Every local deployment allows all of them; `prepareLocalChain` gives them ETH.
 * Public knowledge: for local chains only.
 */
export function localKeeperKeys(wallets: number = LOCAL_KEEPER_POOL_SIZE): Hex[] {
  return Array.from({ length: wallets }, (_, i) =>
    i === 0 ? ANVIL_KEEPER_KEY : keccak256(stringToBytes(`relay-local-keeper:${i + 1}`)),
  );
}

/** The addresses of the local keeper pool, in the order of `localKeeperKeys`. */
export const localKeeperPool = (wallets: number = LOCAL_KEEPER_POOL_SIZE): Address[] =>
  localKeeperKeys(wallets).map((key) => privateKeyToAccount(key).address);

export interface Deployment {
  permit2: Address;
  cngn: Address;
  usdc: Address;
  validation: Address;
  feeController: Address;
  executor: Address;
  reactor: Address;
}

export interface DeployOptions {
  /** Who may call the executor and the reactor; default the local keeper pool (anvil's account #9 first). */
  keepers?: Address[];
  /** The fee controller's default bps; default the local configuration's `fee.bps`. */
  feeBps?: number;
  /** Where forwarded fees go; default the deployer. */
  treasury?: Address;
}

function localEvmChain(): EvmChain {
  const chain = localConfig.chains.find((c) => c.kind === "evm");
  if (chain?.kind !== "evm") throw new Error("the local configuration has no EVM chain");
  return chain;
}

/** Where the local configuration expects each contract. */
export function expectedDeployment(): Deployment {
  const chain = localEvmChain();
  const token = (symbol: string) => {
    const found = chain.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`the local configuration has no ${symbol}`);
    return getAddress(found.address);
  };
  return {
    permit2: getAddress(chain.permit2),
    cngn: token("cNGN"),
    usdc: token("USDC"),
    validation: getAddress(chain.validation),
    feeController: getAddress(chain.feeController),
    executor: getAddress(chain.executor),
    reactor: getAddress(chain.reactor),
  };
}

function clients(rpcUrl: string, account: Account) {
  const transport = http(rpcUrl);
  return {
    publicClient: createPublicClient({ chain: anvil, transport }),
    walletClient: createWalletClient({ account, chain: anvil, transport }),
  };
}

/**
 * Deploys Permit2, cNGN, USDC, validation, fee controller, executor and limit-order reactor from anvil's
 * first account at its nonces 0–6, the addresses `src/config/local.ts` names, and throws if any differs.
 * Every setting goes through a constructor, so no other transaction is sent.
 */
export async function deployContracts(rpcUrl: string, options: DeployOptions = {}): Promise<Deployment> {
  const deployer = privateKeyToAccount(ANVIL_DEPLOYER_KEY);
  const { publicClient, walletClient } = clients(rpcUrl, deployer);
  const sent = await publicClient.getTransactionCount({ address: deployer.address });
  if (sent !== 0) {
    throw new Error(`the deployer has already sent ${sent} transactions; deploy onto a fresh anvil`);
  }
  const expected = expectedDeployment();
  const keepers = options.keepers ?? localKeeperPool();
  const feeBps = options.feeBps ?? localEvmChain().fee.bps;
  const treasury = options.treasury ?? deployer.address;

  const deployed = async (name: keyof Deployment, hash: Promise<Hex>): Promise<Address> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    const address = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
    if (receipt.status !== "success" || !address) throw new Error(`deploying ${name} failed`);
    if (address !== expected[name]) {
      throw new Error(`${name} deployed at ${address}, but the local configuration expects ${expected[name]}`);
    }
    return address;
  };
  const token = (nonce: number, name: string, symbol: string) =>
    walletClient.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: [name, symbol, 6, deployer.address],
      nonce,
    });

  const permit2 = await deployed(
    "permit2",
    walletClient.deployContract({ abi: permit2Abi, bytecode: permit2Bytecode, nonce: 0 }),
  );
  const cngn = await deployed("cngn", token(1, "Test cNGN", "cNGN"));
  const usdc = await deployed("usdc", token(2, "Test USDC", "USDC"));
  const validation = await deployed(
    "validation",
    walletClient.deployContract({
      abi: validationAbi,
      bytecode: validationBytecode,
      args: [deployer.address, [cngn, usdc]],
      nonce: 3,
    }),
  );
  const feeController = await deployed(
    "feeController",
    walletClient.deployContract({
      abi: feeControllerAbi,
      bytecode: feeControllerBytecode,
      args: [deployer.address, treasury, feeBps],
      nonce: 4,
    }),
  );
  const executor = await deployed(
    "executor",
    walletClient.deployContract({
      abi: rfqExecutorAbi,
      bytecode: rfqExecutorBytecode,
      args: [deployer.address, permit2, validation, feeController, keepers],
      nonce: 5,
    }),
  );
  const reactor = await deployed(
    "reactor",
    walletClient.deployContract({
      abi: limitReactorAbi,
      bytecode: limitReactorBytecode,
      args: [deployer.address, permit2, validation, feeController, keepers],
      nonce: 6,
    }),
  );
  return { permit2, cngn, usdc, validation, feeController, executor, reactor };
}

export interface FundArgs {
  /** Each gets `amount` of every token. */
  takers?: Address[];
  /**
   * Each gets `amount` of every token and approves the executor and the reactor for all of it, once and
   * for good: a resolver may win RFQ quotes and limit-order rounds alike.
   */
  resolvers?: Account[];
  /** Per token, in base units. */
  amount: bigint;
}

/**
 * Mints test tokens (as their owner, the deployer) and makes resolvers approve the executor and the
 * reactor. It spends deployer nonces, so deploy the contracts first.
 */
export async function fund(rpcUrl: string, deployment: Deployment, args: FundArgs): Promise<void> {
  const deployer = privateKeyToAccount(ANVIL_DEPLOYER_KEY);
  const { publicClient, walletClient } = clients(rpcUrl, deployer);
  const tokens = [deployment.cngn, deployment.usdc];
  const resolvers = args.resolvers ?? [];
  const holders = [...(args.takers ?? []), ...resolvers.map((r) => r.address)];
  const hashes: Hex[] = [];
  for (const holder of holders) {
    for (const token of tokens) {
      hashes.push(
        await walletClient.writeContract({
          address: token,
          abi: testTokenAbi,
          functionName: "mint",
          args: [holder, args.amount],
        }),
      );
    }
  }
  for (const resolver of resolvers) {
    const wallet = clients(rpcUrl, resolver).walletClient;
    for (const token of tokens) {
      for (const spender of [deployment.executor, deployment.reactor]) {
        hashes.push(
          await wallet.writeContract({
            address: token,
            abi: testTokenAbi,
            functionName: "approve",
            args: [spender, maxUint256],
          }),
        );
      }
    }
  }
  for (const hash of hashes) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`funding transaction ${hash} failed`);
  }
}
