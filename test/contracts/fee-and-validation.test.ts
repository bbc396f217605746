import { type Abi, type Address, type LocalAccount, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEPLOYER_KEY, anvilAccount, fund } from "../../scripts/lib/evm-deploy";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import {
  approvePermit2,
  balanceOf,
  type Chain,
  FEE_BPS,
  fillAbi,
  latestTimestamp,
  revertAfterEach,
  revertName,
  signedQuote,
  startChain,
} from "./chain";

const owner = privateKeyToAccount(ANVIL_DEPLOYER_KEY);
const stranger = anvilAccount(7);
const taker = anvilAccount(1);
const resolver = anvilAccount(3);
const keeper = anvilAccount(9);

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
  await fund(chain.rpcUrl, chain.deployment, { takers: [taker.address], resolvers: [resolver], amount: 10n ** 15n });
  await approvePermit2(chain, taker, chain.deployment.cngn);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

async function send(from: LocalAccount, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const { request } = await chain.publicClient.simulateContract({ account: from, address, abi, functionName, args });
  const hash = await chain.wallet(from).writeContract(request);
  expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

function attempt(from: LocalAccount, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  return revertName(chain.publicClient.simulateContract({ account: from, address, abi, functionName, args }));
}

const feeFor = (token: Address, amount: bigint) =>
  chain.publicClient.readContract({
    address: chain.deployment.feeController,
    abi: feeControllerAbi,
    functionName: "feeFor",
    args: [token, amount],
  });

describe("FeeController", () => {
  it("charges the default bps, or a token's own rate once the owner sets one, rounding down", async () => {
    const { feeController, usdc, cngn } = chain.deployment;
    expect(await feeFor(usdc, 1_999_999n)).toBe((1_999_999n * FEE_BPS) / 10_000n);
    await send(owner, feeController, feeControllerAbi, "setTokenFeeBps", [usdc, 25]);
    expect(await feeFor(usdc, 1_999_999n)).toBe(4_999n);
    expect(await feeFor(cngn, 1_999_999n)).toBe((1_999_999n * FEE_BPS) / 10_000n);
    await send(owner, feeController, feeControllerAbi, "setTokenFeeBps", [usdc, 0]);
    expect(await feeFor(usdc, 1_999_999n)).toBe(0n);
    await send(owner, feeController, feeControllerAbi, "clearTokenFeeBps", [usdc]);
    expect(await feeFor(usdc, 1_999_999n)).toBe((1_999_999n * FEE_BPS) / 10_000n);
  });

  it("refuses rates above the ceiling and changes by anyone but the owner", async () => {
    const { feeController, usdc } = chain.deployment;
    expect(await attempt(owner, feeController, feeControllerAbi, "setDefaultFeeBps", [1001])).toBe("FeeTooHigh");
    expect(await attempt(stranger, feeController, feeControllerAbi, "setTokenFeeBps", [usdc, 5])).toBe(
      "OwnableUnauthorizedAccount",
    );
    expect(await attempt(stranger, feeController, feeControllerAbi, "setTreasury", [stranger.address])).toBe(
      "OwnableUnauthorizedAccount",
    );
  });

  it("forwards what it holds to the treasury, whoever asks", async () => {
    const { feeController, usdc } = chain.deployment;
    const treasury = anvilAccount(6).address;
    await send(owner, feeController, feeControllerAbi, "setTreasury", [treasury]);
    await send(owner, usdc, testTokenAbi, "mint", [feeController, 1234n]);
    await send(stranger, feeController, feeControllerAbi, "forward", [usdc]);
    expect(await balanceOf(chain, usdc, treasury)).toBe(1234n);
    expect(await balanceOf(chain, usdc, feeController)).toBe(0n);
  });

  it("is the fee the executor takes of a fill: a minimum signed at another rate is not met", async () => {
    const { feeController, cngn, usdc, executor } = chain.deployment;
    await send(owner, feeController, feeControllerAbi, "setTokenFeeBps", [usdc, 30]);
    const quote = (feeBps: bigint) =>
      latestTimestamp(chain).then((now) =>
        signedQuote(chain, {
          taker,
          resolver,
          recipient: taker.address,
          sellToken: cngn,
          buyToken: usdc,
          sellAmount: parseUnits("1500000", 6),
          outputAmount: parseUnits("1000", 6),
          gasFeeToken: usdc,
          gasFee: 50_000n,
          deadline: now + 300n,
          feeBps,
        }),
      );
    const args = (q: Awaited<ReturnType<typeof quote>>) => [
      q.order,
      q.permit,
      taker.address,
      q.takerSignature,
      [{ ...q.bid, signature: q.resolverSignature }],
    ];
    expect(await attempt(keeper, executor, fillAbi, "fill", args(await quote(FEE_BPS)))).toBe("ReceivedBelowMinimum");
    const atNewRate = await quote(30n);
    await send(keeper, executor, fillAbi, "fill", args(atNewRate));
    expect(await balanceOf(chain, usdc, feeController)).toBe(atNewRate.fee);
    expect(atNewRate.fee).toBe(parseUnits("3", 6));
  });
});

describe("Validation", () => {
  const validate = (sellToken: Address, buyToken: Address) =>
    revertName(
      chain.publicClient.readContract({
        address: chain.deployment.validation,
        abi: validationAbi,
        functionName: "validate",
        args: [sellToken, buyToken],
      }),
    );

  it("accepts a pair of listed tokens and says which token or why when it refuses", async () => {
    const { cngn, usdc, validation } = chain.deployment;
    await expect(
      chain.publicClient.readContract({
        address: validation,
        abi: validationAbi,
        functionName: "validate",
        args: [cngn, usdc],
      }),
    ).resolves.toBeUndefined();
    expect(await validate(cngn, cngn)).toBe("SameToken");
    expect(await validate(cngn, stranger.address)).toBe("TokenNotAllowed");
    await send(owner, validation, validationAbi, "setTokenAllowed", [usdc, false]);
    expect(await validate(cngn, usdc)).toBe("TokenNotAllowed");
    expect(await attempt(stranger, validation, validationAbi, "setTokenAllowed", [usdc, true])).toBe(
      "OwnableUnauthorizedAccount",
    );
  });
});
