import { randomBytes } from "node:crypto";
import {
  type Address,
  type Hex,
  hashTypedData,
  type LocalAccount,
  maxUint256,
  parseEventLogs,
  parseSignature,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_DEPLOYER_KEY, anvilAccount, fund } from "../../scripts/lib/evm-deploy";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import {
  LIMIT_WITNESS_TYPE_STRING,
  type LimitAuth,
  type LimitFill,
  limitFillTypedData,
  limitPermitAmount,
  limitTakerTypedData,
} from "../../src/chains/evm/limit-typed-data";
import { ERC2612_PERMIT_TYPES, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import {
  approvePermit2,
  type Chain,
  FEE_BPS,
  latestTimestamp,
  limitAbi,
  newQuoteId,
  revertAfterEach,
  revertName,
  startChain,
  withBalanceChanges,
} from "./chain";

const taker = anvilAccount(1);
const unapprovedTaker = anvilAccount(2);
const resolver = anvilAccount(3);
const recipient = anvilAccount(5).address;
const stranger = anvilAccount(7);
const keeper = anvilAccount(9);
const owner = privateKeyToAccount(ANVIL_DEPLOYER_KEY);

/** The local gas fee now (`gasFee.fixed`, in USDC): a limit order allows three times it (docs/contracts.md). */
const GAS_FEE_NOW = 50_000n;

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
  await fund(chain.rpcUrl, chain.deployment, {
    takers: [taker.address, unapprovedTaker.address],
    resolvers: [resolver],
    amount: parseUnits("10000000", 6),
  });
  await approvePermit2(chain, taker, chain.deployment.cngn);
  await approvePermit2(chain, taker, chain.deployment.usdc);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

const feeFor = (amount: bigint) => (amount * FEE_BPS) / 10_000n;

/** A placed order: the taker's terms, the Permit2 nonce that identifies it, and the taker's signature. */
interface Placed {
  order: LimitAuth;
  nonce: bigint;
  takerSignature: Hex;
}

/** One auction round's winning fill of an order, signed by its resolver. */
interface Won {
  bid: { resolver: Address; quoteId: Hex; outputAmount: bigint; deadline: bigint };
  fill: LimitFill;
  resolverSignature: Hex;
}

function signOrder(signer: LocalAccount, order: LimitAuth, nonce: bigint): Promise<Hex> {
  return signer.signTypedData(
    limitTakerTypedData({
      chainId: chain.chainId,
      permit2: chain.deployment.permit2,
      reactor: chain.deployment.reactor,
      nonce,
      order,
    }),
  );
}

function signFill(signer: LocalAccount, fill: LimitFill): Promise<Hex> {
  return signer.signTypedData(limitFillTypedData({ chainId: chain.chainId, reactor: chain.deployment.reactor, fill }));
}

/**
 * Selling 1,500,000 cNGN for at least 1,000 USDC (the limit amount), the gas fee in USDC (the buy token):
 * minOut = limit amount − the fee at the limit − maxGasFee, with maxGasFee three times the gas fee now.
 */
async function cngnForUsdc(overrides: Partial<LimitAuth> = {}, signer: LocalAccount = taker): Promise<Placed> {
  const limitAmount = parseUnits("1000", 6);
  const maxGasFee = 3n * GAS_FEE_NOW;
  const order: LimitAuth = {
    taker: signer.address,
    recipient,
    sellToken: chain.deployment.cngn,
    buyToken: chain.deployment.usdc,
    sellAmount: parseUnits("1500000", 6),
    minOut: limitAmount - feeFor(limitAmount) - maxGasFee,
    gasFeeToken: chain.deployment.usdc,
    maxGasFee,
    deadline: (await latestTimestamp(chain)) + 86_400n,
    ...overrides,
  };
  return place(order, signer);
}

/** Selling 1,000 USDC for at least 1,490,000 cNGN, the gas fee in USDC (the sell token). */
async function usdcForCngn(overrides: Partial<LimitAuth> = {}): Promise<Placed> {
  const limitAmount = parseUnits("1490000", 6);
  return place({
    taker: taker.address,
    recipient,
    sellToken: chain.deployment.usdc,
    buyToken: chain.deployment.cngn,
    sellAmount: parseUnits("1000", 6),
    minOut: limitAmount - feeFor(limitAmount),
    gasFeeToken: chain.deployment.usdc,
    maxGasFee: 3n * GAS_FEE_NOW,
    deadline: (await latestTimestamp(chain)) + 86_400n,
    ...overrides,
  });
}

async function place(order: LimitAuth, signer: LocalAccount = taker): Promise<Placed> {
  const nonce = BigInt(`0x${randomBytes(32).toString("hex")}`);
  return { order, nonce, takerSignature: await signOrder(signer, order, nonce) };
}

/** The resolver's signed fill of `placed` for `outputAmount`, in a fresh round, valid for 30 s. */
async function win(placed: Placed, outputAmount: bigint, signer: LocalAccount = resolver): Promise<Won> {
  const bid = {
    resolver: resolver.address,
    quoteId: quoteIdToBytes32(newQuoteId()),
    outputAmount,
    deadline: (await latestTimestamp(chain)) + 30n,
  };
  const fill: LimitFill = {
    quoteId: bid.quoteId,
    order: placed.order,
    nonce: placed.nonce,
    outputAmount,
    deadline: bid.deadline,
  };
  return { bid, fill, resolverSignature: await signFill(signer, fill) };
}

function executeArgs(placed: Placed, won: Won, gasFee: bigint) {
  return [placed.order, placed.nonce, placed.takerSignature, won.bid, won.resolverSignature, gasFee] as const;
}

function simulate(placed: Placed, won: Won, gasFee: bigint, from: LocalAccount = keeper) {
  return chain.publicClient.simulateContract({
    account: from,
    address: chain.deployment.reactor,
    abi: limitAbi,
    functionName: "executeLimit",
    args: executeArgs(placed, won, gasFee),
  });
}

/** Submits as the keeper would: simulate, then send; returns the receipt of a successful fill. */
async function execute(placed: Placed, won: Won, gasFee: bigint, from: LocalAccount = keeper) {
  const { request } = await simulate(placed, won, gasFee, from);
  const hash = await chain.wallet(from).writeContract(request);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

function revertOf(placed: Placed, won: Won, gasFee: bigint, from: LocalAccount = keeper) {
  return revertName(simulate(placed, won, gasFee, from));
}

describe("LimitReactor.executeLimit", () => {
  it("moves every amount exactly when the gas fee is charged in the buy token", async () => {
    const { cngn, usdc, feeController, reactor } = chain.deployment;
    const placed = await cngnForUsdc();
    const won = await win(placed, parseUnits("1000.2", 6));
    const gasFee = 60_000n;
    const holders = [taker.address, resolver.address, recipient, feeController, keeper.address, reactor];
    const { result: receipt, changes } = await withBalanceChanges(chain, [cngn, usdc], holders, () =>
      execute(placed, won, gasFee),
    );

    const { sellAmount } = placed.order;
    const { outputAmount } = won.bid;
    const fee = feeFor(outputAmount);
    const received = outputAmount - fee - gasFee;
    expect(fee).toBe(1_000_200n);
    expect(received).toBe(999_139_800n);
    expect(received).toBeGreaterThanOrEqual(placed.order.minOut);
    // cNGN: taker, resolver, recipient, fee controller, keeper, reactor
    expect(changes[0]).toEqual([-sellAmount, sellAmount, 0n, 0n, 0n, 0n]);
    // USDC
    expect(changes[1]).toEqual([0n, -outputAmount, received, fee, gasFee, 0n]);

    const orderHash = hashTypedData(
      limitFillTypedData({ chainId: chain.chainId, reactor: chain.deployment.reactor, fill: won.fill }),
    );
    const [event] = parseEventLogs({ abi: limitReactorAbi, logs: receipt.logs, eventName: "LimitFilled" });
    expect(event?.args).toEqual({
      orderHash,
      quoteId: won.bid.quoteId,
      resolver: resolver.address,
      filler: keeper.address,
      taker: taker.address,
      sellToken: cngn,
      sellAmount,
      buyToken: usdc,
      outputAmount,
      received,
      fee,
      gasFee,
    });
    expect(
      await chain.publicClient.readContract({
        address: reactor,
        abi: limitReactorAbi,
        functionName: "fillHash",
        args: [placed.order, placed.nonce, won.bid],
      }),
    ).toBe(orderHash);
  });

  it("pulls only the gas fee charged on top of the sell amount when it is in the sell token", async () => {
    const { cngn, usdc, feeController, permit2, reactor } = chain.deployment;
    const placed = await usdcForCngn();
    expect(limitPermitAmount(placed.order)).toBe(placed.order.sellAmount + placed.order.maxGasFee);
    const won = await win(placed, parseUnits("1495000", 6));
    const gasFee = 70_000n;
    const holders = [taker.address, resolver.address, recipient, feeController, keeper.address, reactor];
    const { changes } = await withBalanceChanges(chain, [usdc, cngn], holders, () => execute(placed, won, gasFee));

    const { sellAmount } = placed.order;
    const { outputAmount } = won.bid;
    const fee = feeFor(outputAmount);
    // USDC (sold): taker, resolver, recipient, fee controller, keeper, reactor
    expect(changes[0]).toEqual([-(sellAmount + gasFee), sellAmount, 0n, 0n, gasFee, 0n]);
    // cNGN (bought)
    expect(changes[1]).toEqual([0n, -outputAmount, outputAmount - fee, fee, 0n, 0n]);
    // The unused part of the permit is not left behind as an allowance: the nonce is spent.
    const bitmap = await chain.publicClient.readContract({
      address: permit2,
      abi: permit2Abi,
      functionName: "nonceBitmap",
      args: [taker.address, placed.nonce >> 8n],
    });
    expect(bitmap & (1n << (placed.nonce & 0xffn))).not.toBe(0n);
  });

  it("charges up to maxGasFee, on either side, and refuses a gas fee one unit over it", async () => {
    for (const placed of [await cngnForUsdc(), await usdcForCngn()]) {
      const won = await win(placed, placed.order.minOut * 2n);
      const max = placed.order.maxGasFee;
      expect(await revertOf(placed, won, max + 1n)).toBe("GasFeeAboveMax");
      await execute(placed, won, max);
    }
  });

  it("fills when the recipient gets exactly minOut and refuses an output one unit short", async () => {
    const gasFee = 60_000n;
    const outputAmount = parseUnits("1000.2", 6);
    const received = outputAmount - feeFor(outputAmount) - gasFee;
    const short = await cngnForUsdc({ minOut: received + 1n });
    expect(await revertOf(short, await win(short, outputAmount), gasFee)).toBe("OutputBelowMinOut");

    const exact = await cngnForUsdc({ minOut: received });
    const { changes } = await withBalanceChanges(chain, [chain.deployment.usdc], [recipient], async () =>
      execute(exact, await win(exact, outputAmount), gasFee),
    );
    expect(changes[0]).toEqual([received]);
  });

  it("refuses an output that does not even cover the fee and the gas fee", async () => {
    const placed = await cngnForUsdc({ minOut: 0n });
    expect(await revertOf(placed, await win(placed, 1_000n), 50_000n)).toBe("OutputBelowMinOut");
  });

  it("refuses an order past its deadline", async () => {
    const placed = await cngnForUsdc({ deadline: (await latestTimestamp(chain)) + 60n });
    await chain.testClient.increaseTime({ seconds: 120 });
    await chain.testClient.mine({ blocks: 1 });
    expect(await revertOf(placed, await win(placed, parseUnits("1000", 6)), GAS_FEE_NOW)).toBe("OrderExpired");
  });

  it("refuses a resolver's fill past its deadline", async () => {
    const placed = await cngnForUsdc();
    const won = await win(placed, parseUnits("1000", 6));
    await chain.testClient.increaseTime({ seconds: 60 });
    await chain.testClient.mine({ blocks: 1 });
    expect(await revertOf(placed, won, GAS_FEE_NOW)).toBe("FillExpired");
  });

  it("fills an order once: a later round's fill of the same order is refused by Permit2", async () => {
    const placed = await cngnForUsdc();
    await execute(placed, await win(placed, parseUnits("1000", 6)), GAS_FEE_NOW);
    expect(await revertOf(placed, await win(placed, parseUnits("1001", 6)), GAS_FEE_NOW)).toBe(
      "TakerLegFailed(InvalidNonce)",
    );
  });

  it("lets the taker cancel the order through Permit2's invalidateUnorderedNonces", async () => {
    const placed = await cngnForUsdc();
    const hash = await chain.wallet(taker).writeContract({
      address: chain.deployment.permit2,
      abi: permit2Abi,
      functionName: "invalidateUnorderedNonces",
      args: [placed.nonce >> 8n, 1n << (placed.nonce & 0xffn)],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(await revertOf(placed, await win(placed, parseUnits("1000", 6)), GAS_FEE_NOW)).toBe(
      "TakerLegFailed(InvalidNonce)",
    );
  });

  it("only lets allow-listed keepers fill, as the owner keeps the list", async () => {
    const placed = await cngnForUsdc();
    const won = await win(placed, parseUnits("1000", 6));
    expect(await revertOf(placed, won, GAS_FEE_NOW, stranger)).toBe("NotKeeper");
    expect(await revertOf(placed, won, GAS_FEE_NOW, owner)).toBe("NotKeeper");

    const hash = await chain.wallet(owner).writeContract({
      address: chain.deployment.reactor,
      abi: limitReactorAbi,
      functionName: "setKeeper",
      args: [stranger.address, true],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await execute(placed, won, GAS_FEE_NOW, stranger);
  });

  it("refuses a fill signed by someone other than its resolver", async () => {
    const placed = await cngnForUsdc();
    const won = await win(placed, parseUnits("1000", 6), stranger);
    expect(await revertOf(placed, won, GAS_FEE_NOW)).toBe("InvalidResolverSignature");
  });

  it("refuses a resolver signature over another output, round or order", async () => {
    const placed = await cngnForUsdc();
    const won = await win(placed, parseUnits("1000", 6));
    const more = { ...won, bid: { ...won.bid, outputAmount: won.bid.outputAmount + 1n } };
    expect(await revertOf(placed, more, GAS_FEE_NOW)).toBe("InvalidResolverSignature");
    const otherRound = { ...won, bid: { ...won.bid, quoteId: quoteIdToBytes32(newQuoteId()) } };
    expect(await revertOf(placed, otherRound, GAS_FEE_NOW)).toBe("InvalidResolverSignature");
    // The same terms placed twice are two orders: a fill of one does not settle the other.
    const twin = await place(placed.order);
    expect(await revertOf(twin, won, GAS_FEE_NOW)).toBe("InvalidResolverSignature");
  });

  it("refuses terms other than the ones the taker signed, even with the resolver's agreement", async () => {
    const placed = await cngnForUsdc();
    for (const change of [{ recipient: stranger.address }, { minOut: 0n }, { maxGasFee: parseUnits("10", 6) }]) {
      const tampered = { ...placed, order: { ...placed.order, ...change } };
      const won = await win(tampered, parseUnits("1000", 6));
      expect(await revertOf(tampered, won, GAS_FEE_NOW)).toBe("TakerLegFailed(InvalidSigner)");
    }
  });

  it("refuses a gas fee in a token outside the pair", async () => {
    const placed = await cngnForUsdc({ gasFeeToken: chain.deployment.permit2 });
    expect(await revertOf(placed, await win(placed, parseUnits("1000", 6)), GAS_FEE_NOW)).toBe("GasFeeTokenNotInPair");
  });

  it("refuses a pair the validation contract does not allow", async () => {
    const placed = await cngnForUsdc({ buyToken: chain.deployment.cngn });
    expect(await revertOf(placed, await win(placed, parseUnits("1000", 6)), GAS_FEE_NOW)).toBe("SameToken");
  });

  it("hands Permit2 the witness type string the TypeScript side declares", async () => {
    const onChain = await chain.publicClient.readContract({
      address: chain.deployment.reactor,
      abi: limitReactorAbi,
      functionName: "LIMIT_WITNESS_TYPE_STRING",
    });
    expect(onChain).toBe(LIMIT_WITNESS_TYPE_STRING);
  });
});

describe("LimitReactor.executeLimitWithPermit", () => {
  /** The taker's EIP-2612 approval of Permit2 for cNGN, as a wallet signs it. */
  async function erc2612(signer: LocalAccount, holder: Address) {
    const deadline = (await latestTimestamp(chain)) + 300n;
    const nonce = await chain.publicClient.readContract({
      address: chain.deployment.cngn,
      abi: testTokenAbi,
      functionName: "nonces",
      args: [holder],
    });
    const signature = await signer.signTypedData({
      domain: { name: "Test cNGN", version: "1", chainId: chain.chainId, verifyingContract: chain.deployment.cngn },
      types: ERC2612_PERMIT_TYPES,
      primaryType: "Permit",
      message: { owner: holder, spender: chain.deployment.permit2, value: maxUint256, nonce, deadline },
    });
    const { r, s, yParity } = parseSignature(signature);
    return { value: maxUint256, deadline, v: yParity + 27, r, s };
  }

  function simulateWithPermit(placed: Placed, won: Won, permit: Awaited<ReturnType<typeof erc2612>>) {
    return chain.publicClient.simulateContract({
      account: keeper,
      address: chain.deployment.reactor,
      abi: limitAbi,
      functionName: "executeLimitWithPermit",
      args: [...executeArgs(placed, won, GAS_FEE_NOW), permit],
    });
  }

  it("settles in one call for a taker that has not approved Permit2", async () => {
    const placed = await cngnForUsdc({}, unapprovedTaker);
    const won = await win(placed, parseUnits("1000", 6));
    expect(await revertOf(placed, won, GAS_FEE_NOW)).toBe("TakerLegFailed(ERC20InsufficientAllowance)");

    const { changes } = await withBalanceChanges(
      chain,
      [chain.deployment.cngn],
      [unapprovedTaker.address],
      async () => {
        const { request } = await simulateWithPermit(
          placed,
          won,
          await erc2612(unapprovedTaker, unapprovedTaker.address),
        );
        const hash = await chain.wallet(keeper).writeContract(request);
        expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
      },
    );
    expect(changes[0]).toEqual([-placed.order.sellAmount]);
  });

  it("fails on the missing allowance, not on the permit, when the permit is not the taker's", async () => {
    const placed = await cngnForUsdc({}, unapprovedTaker);
    const won = await win(placed, parseUnits("1000", 6));
    const forged = await erc2612(stranger, unapprovedTaker.address);
    expect(await revertName(simulateWithPermit(placed, won, forged))).toBe(
      "TakerLegFailed(ERC20InsufficientAllowance)",
    );
  });
});
