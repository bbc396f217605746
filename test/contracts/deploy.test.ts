import { domainSeparator, getAddress, maxUint256, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ANVIL_DEPLOYER_KEY,
  ANVIL_KEEPER,
  anvilAccount,
  deployContracts,
  fund,
  localKeeperPool,
} from "../../scripts/lib/evm-deploy";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import { reactorDomain } from "../../src/chains/evm/limit-typed-data";
import { executorDomain } from "../../src/chains/evm/typed-data";
import { localConfig } from "../../src/config/local";
import { type Chain, startChain } from "./chain";

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
});

afterAll(() => chain?.stop());

const evm = localConfig.chains.find((c) => c.kind === "evm");
if (evm?.kind !== "evm") throw new Error("the local configuration has no EVM chain");

describe("deployContracts", () => {
  it("puts every contract where the local configuration says, at the deployer's nonces 0–6", async () => {
    const token = (symbol: string) => getAddress(evm.tokens.find((t) => t.symbol === symbol)?.address ?? "");
    expect(chain.deployment).toEqual({
      permit2: getAddress(evm.permit2),
      cngn: token("cNGN"),
      usdc: token("USDC"),
      validation: getAddress(evm.validation),
      feeController: getAddress(evm.feeController),
      executor: getAddress(evm.executor),
      reactor: getAddress(evm.reactor),
    });
    const deployer = privateKeyToAccount(ANVIL_DEPLOYER_KEY).address;
    expect(await chain.publicClient.getTransactionCount({ address: deployer })).toBe(7);
  });

  it("configures everything through constructors: tokens, keeper, fee, wiring and domain", async () => {
    const { publicClient, deployment } = chain;
    const read = publicClient.readContract;
    for (const token of [deployment.cngn, deployment.usdc]) {
      expect(await read({ address: token, abi: testTokenAbi, functionName: "decimals" })).toBe(6);
      expect(
        await read({
          address: deployment.validation,
          abi: validationAbi,
          functionName: "allowedTokens",
          args: [token],
        }),
      ).toBe(true);
    }
    expect(
      await read({ address: deployment.executor, abi: rfqExecutorAbi, functionName: "keepers", args: [ANVIL_KEEPER] }),
    ).toBe(true);
    expect(
      await read({ address: deployment.feeController, abi: feeControllerAbi, functionName: "defaultFeeBps" }),
    ).toBe(evm.fee.bps);
    expect(await read({ address: deployment.executor, abi: rfqExecutorAbi, functionName: "PERMIT2" })).toBe(
      deployment.permit2,
    );
    expect(await read({ address: deployment.executor, abi: rfqExecutorAbi, functionName: "VALIDATION" })).toBe(
      deployment.validation,
    );
    expect(await read({ address: deployment.executor, abi: rfqExecutorAbi, functionName: "FEE_CONTROLLER" })).toBe(
      deployment.feeController,
    );
    const [, name, version, chainId, verifyingContract] = await read({
      address: deployment.executor,
      abi: rfqExecutorAbi,
      functionName: "eip712Domain",
    });
    const domain = executorDomain(chain.chainId, deployment.executor);
    expect({ name, version, chainId: Number(chainId), verifyingContract }).toEqual(domain);
    expect(domainSeparator({ domain })).toBe(
      domainSeparator({ domain: { name, version, chainId, verifyingContract } }),
    );
  });

  it("wires the reactor like the executor: keeper, Permit2, validation, fee controller, its own domain", async () => {
    const { publicClient, deployment } = chain;
    const read = publicClient.readContract;
    const reactor = { address: deployment.reactor, abi: limitReactorAbi } as const;
    expect(await read({ ...reactor, functionName: "keepers", args: [ANVIL_KEEPER] })).toBe(true);
    // The local keeper pool's wallets are allowed by both contracts; anyone else is not.
    for (const keeper of localKeeperPool()) {
      expect(await read({ ...reactor, functionName: "keepers", args: [keeper] })).toBe(true);
      expect(
        await read({ address: deployment.executor, abi: rfqExecutorAbi, functionName: "keepers", args: [keeper] }),
      ).toBe(true);
    }
    expect(await read({ ...reactor, functionName: "keepers", args: [anvilAccount(8).address] })).toBe(false);
    expect(await read({ ...reactor, functionName: "owner" })).toBe(privateKeyToAccount(ANVIL_DEPLOYER_KEY).address);
    expect(await read({ ...reactor, functionName: "PERMIT2" })).toBe(deployment.permit2);
    expect(await read({ ...reactor, functionName: "VALIDATION" })).toBe(deployment.validation);
    expect(await read({ ...reactor, functionName: "FEE_CONTROLLER" })).toBe(deployment.feeController);
    const [, name, version, chainId, verifyingContract] = await read({ ...reactor, functionName: "eip712Domain" });
    expect({ name, version, chainId: Number(chainId), verifyingContract }).toEqual(
      reactorDomain(chain.chainId, deployment.reactor),
    );
  });

  it("refuses a chain where the deployer has already sent transactions", async () => {
    await expect(deployContracts(chain.rpcUrl)).rejects.toThrow(/already sent 7 transactions/);
  });
});

describe("fund", () => {
  it("mints to takers and resolvers and has resolvers approve the executor and the reactor", async () => {
    const taker = anvilAccount(1).address;
    const resolver = anvilAccount(3);
    const amount = parseUnits("250", 6);
    await fund(chain.rpcUrl, chain.deployment, { takers: [taker], resolvers: [resolver], amount });
    const read = chain.publicClient.readContract;
    for (const token of [chain.deployment.cngn, chain.deployment.usdc]) {
      for (const holder of [taker, resolver.address]) {
        expect(await read({ address: token, abi: testTokenAbi, functionName: "balanceOf", args: [holder] })).toBe(
          amount,
        );
      }
      for (const spender of [chain.deployment.executor, chain.deployment.reactor]) {
        const allowance = (owner: `0x${string}`) =>
          read({ address: token, abi: testTokenAbi, functionName: "allowance", args: [owner, spender] });
        expect(await allowance(resolver.address)).toBe(maxUint256);
        expect(await allowance(taker)).toBe(0n);
      }
    }
  });
});
