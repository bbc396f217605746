import { createPublicClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEPLOYER_KEY, deployContracts } from "../../scripts/lib/evm-deploy";
import { deployToChain, setKeeper } from "../../scripts/lib/evm-deploy-chain";
import { anvilPrivateKey } from "../../scripts/lib/local-stack";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import { type AnvilProcess, startAnvil } from "../support/anvil";

/** scripts/deploy-evm.ts's deployment, onto an anvil where the local deployment put a Permit2 and two tokens. */
let anvil: AnvilProcess;
let local: Awaited<ReturnType<typeof deployContracts>>;
beforeAll(async () => {
  anvil = await startAnvil();
  local = await deployContracts(anvil.rpcUrl);
});
afterAll(() => anvil?.stop());

const KEEPERS = [
  getAddress("0x00000000000000000000000000000000000000a1"),
  getAddress("0x00000000000000000000000000000000000000a2"),
];
const TREASURY = getAddress("0x00000000000000000000000000000000000000f1");
const OWNER = getAddress("0x00000000000000000000000000000000000000e1");

describe("deploying onto a chain (scripts/deploy-evm.ts)", () => {
  it("deploys against the chain's Permit2, each contract set up by its constructor", async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const deployment = await deployToChain({
      rpcUrl: anvil.rpcUrl,
      deployerKey: anvilPrivateKey(1),
      tokens: [local.cngn, local.usdc],
      keepers: KEEPERS,
      feeBps: 25,
      treasury: TREASURY,
      owner: OWNER,
      permit2: local.permit2,
    });
    expect(deployment).toMatchObject({ chainId: 31337, permit2: local.permit2 });
    for (const [abi, address] of [
      [rfqExecutorAbi, deployment.executor],
      [limitReactorAbi, deployment.reactor],
    ] as const) {
      for (const keeper of KEEPERS) {
        expect(await client.readContract({ abi, address, functionName: "keepers", args: [keeper] })).toBe(true);
      }
      expect(await client.readContract({ abi, address, functionName: "owner" })).toBe(OWNER);
    }
    const allowed = (token: `0x${string}`) =>
      client.readContract({
        abi: validationAbi,
        address: deployment.validation,
        functionName: "allowedTokens",
        args: [token],
      });
    expect([await allowed(local.cngn), await allowed(local.usdc)]).toEqual([true, true]);
    expect(
      await client.readContract({
        abi: feeControllerAbi,
        address: deployment.feeController,
        functionName: "defaultFeeBps",
      }),
    ).toBe(25);
  });

  it("lets the owner swap a keeper on both contracts (scripts/set-keeper.ts)", async () => {
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const ownerKey = anvilPrivateKey(2);
    const deployment = await deployToChain({
      rpcUrl: anvil.rpcUrl,
      deployerKey: ownerKey,
      tokens: [],
      keepers: [KEEPERS[0] as `0x${string}`],
      feeBps: 10,
      treasury: TREASURY,
      permit2: local.permit2,
    });
    const contracts = [deployment.executor, deployment.reactor];
    const fresh = KEEPERS[1] as `0x${string}`;
    await setKeeper({ rpcUrl: anvil.rpcUrl, ownerKey, contracts, keeper: fresh, allowed: true });
    await setKeeper({ rpcUrl: anvil.rpcUrl, ownerKey, contracts, keeper: KEEPERS[0] as `0x${string}`, allowed: false });
    for (const address of contracts) {
      const isKeeper = (keeper: `0x${string}`) =>
        client.readContract({ abi: rfqExecutorAbi, address, functionName: "keepers", args: [keeper] });
      expect([await isKeeper(KEEPERS[0] as `0x${string}`), await isKeeper(fresh)]).toEqual([false, true]);
    }
  });

  it("refuses a Permit2 address without code", async () => {
    await expect(
      deployToChain({
        rpcUrl: anvil.rpcUrl,
        deployerKey: ANVIL_DEPLOYER_KEY,
        tokens: [],
        keepers: [privateKeyToAccount(ANVIL_DEPLOYER_KEY).address],
        feeBps: 0,
        treasury: TREASURY,
        permit2: "0x00000000000000000000000000000000000000b2",
      }),
    ).rejects.toThrow(/no contract at the Permit2 address/);
  });
});
