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
import { testTokenBytecode } from "../../contracts/out/test-token";
import { ANVIL_DEPLOYER_KEY, ANVIL_KEEPER, anvilAccount, fund, localKeeperKeys } from "../../scripts/lib/evm-deploy";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { ERC2612_PERMIT_TYPES, fillTypedData } from "../../src/chains/evm/typed-data";
import {
  approvePermit2,
  balanceOf,
  type Chain,
  FEE_BPS,
  fillAbi,
  latestTimestamp,
  type QuoteTerms,
  revertAfterEach,
  revertName,
  signedQuote,
  signResolver,
  signTaker,
  startChain,
  withBalanceChanges,
} from "./chain";

const taker = anvilAccount(1);
const unapprovedTaker = anvilAccount(2);
const resolver = anvilAccount(3);
/** Another resolver, whose bid may fill the same signed order when the first fades. */
const nextResolver = anvilAccount(4);
const recipient = anvilAccount(5).address;
const stranger = anvilAccount(7);
const keeper = anvilAccount(9);
const owner = privateKeyToAccount(ANVIL_DEPLOYER_KEY);

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
  await fund(chain.rpcUrl, chain.deployment, {
    takers: [taker.address, unapprovedTaker.address],
    resolvers: [resolver, nextResolver],
    amount: parseUnits("10000000", 6),
  });
  await approvePermit2(chain, taker, chain.deployment.cngn);
  await approvePermit2(chain, taker, chain.deployment.usdc);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

type Quote = Awaited<ReturnType<typeof signedQuote>>;

/** Selling 1,500,000 cNGN for about 1,000 USDC, the gas fee charged in USDC (the buy token). */
async function cngnForUsdc(overrides: Partial<QuoteTerms> = {}): Promise<Quote> {
  return signedQuote(chain, {
    taker,
    resolver,
    recipient,
    sellToken: chain.deployment.cngn,
    buyToken: chain.deployment.usdc,
    sellAmount: parseUnits("1500000", 6),
    outputAmount: parseUnits("999.5", 6),
    gasFeeToken: chain.deployment.usdc,
    gasFee: 50_000n,
    deadline: (await latestTimestamp(chain)) + 300n,
    ...overrides,
  });
}

type SignedParts = Pick<Quote, "order" | "bid" | "permit" | "takerSignature" | "resolverSignature" | "fill">;

function fillArgs(quote: SignedParts) {
  const { order, permit, fill, takerSignature, bid, resolverSignature } = quote;
  return [order, permit, fill.taker, takerSignature, [{ ...bid, signature: resolverSignature }]] as const;
}

/** Submits as the keeper would: simulate, then send; returns the receipt of a successful fill. */
const fill_ = (quote: SignedParts) => fill(quote);

async function fill(quote: SignedParts, from: LocalAccount = keeper) {
  const { request } = await simulateFill(quote, from);
  const hash = await chain.wallet(from).writeContract(request);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

function simulateFill(quote: SignedParts, from: LocalAccount = keeper) {
  return chain.publicClient.simulateContract({
    account: from,
    address: chain.deployment.executor,
    abi: fillAbi,
    functionName: "fill",
    args: fillArgs(quote),
  });
}

function revertOf(quote: SignedParts, from: LocalAccount = keeper): Promise<string | undefined> {
  return revertName(simulateFill(quote, from));
}

describe("RfqExecutor.fill", () => {
  it("moves every amount exactly when the gas fee is charged in the buy token", async () => {
    const { cngn, usdc, feeController } = chain.deployment;
    const quote = await cngnForUsdc();
    const holders = [taker.address, resolver.address, recipient, feeController, keeper.address];
    const { result: receipt, changes } = await withBalanceChanges(chain, [cngn, usdc], holders, () => fill(quote));

    const { sellAmount, outputAmount } = quote.fill;
    const { received, fee } = quote;
    const { gasFee } = quote.order;
    expect(fee).toBe((outputAmount * FEE_BPS) / 10_000n);
    expect(received + fee + gasFee).toBe(outputAmount);
    // cNGN: taker, resolver, recipient, fee controller, keeper
    expect(changes[0]).toEqual([-sellAmount, sellAmount, 0n, 0n, 0n]);
    // USDC
    expect(changes[1]).toEqual([0n, -outputAmount, received, fee, gasFee]);

    const [event] = parseEventLogs({ abi: rfqExecutorAbi, logs: receipt.logs, eventName: "RfqFilled" });
    expect(event?.args).toEqual({
      orderHash: hashTypedData(
        fillTypedData({ chainId: chain.chainId, executor: chain.deployment.executor, fill: quote.fill }),
      ),
      quoteId: quote.order.quoteId,
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
  });

  it("takes the gas fee on top of the sell amount when it is charged in the sell token", async () => {
    const { cngn, usdc, feeController } = chain.deployment;
    const quote = await signedQuote(chain, {
      taker,
      resolver,
      recipient,
      sellToken: usdc,
      buyToken: cngn,
      sellAmount: parseUnits("1000", 6),
      outputAmount: parseUnits("1490000", 6),
      gasFeeToken: usdc,
      gasFee: 50_000n,
      deadline: (await latestTimestamp(chain)) + 300n,
    });
    const holders = [taker.address, resolver.address, recipient, feeController, keeper.address];
    const { changes } = await withBalanceChanges(chain, [usdc, cngn], holders, () => fill(quote));

    const { sellAmount, outputAmount } = quote.fill;
    const { received, fee } = quote;
    const { gasFee } = quote.order;
    expect(quote.takerPays).toBe(sellAmount + gasFee);
    expect(received + fee).toBe(outputAmount);
    // USDC (sold): taker, resolver, recipient, fee controller, keeper
    expect(changes[0]).toEqual([-(sellAmount + gasFee), sellAmount, 0n, 0n, gasFee]);
    // cNGN (bought)
    expect(changes[1]).toEqual([0n, -outputAmount, received, fee, 0n]);
  });

  it("refuses to settle the same signatures twice", async () => {
    const quote = await cngnForUsdc();
    await fill(quote);
    expect(await revertOf(quote)).toBe("TakerLegFailed(InvalidNonce)");
  });

  it("refuses a recipient other than the one the taker signed", async () => {
    const quote = await cngnForUsdc();
    expect(await revertOf({ ...quote, order: { ...quote.order, recipient: stranger.address } })).toBe(
      "TakerLegFailed(InvalidSigner)",
    );
  });

  it("refuses a bid that pays the recipient less than the signed minimum, even with the resolver's agreement", async () => {
    const quote = await cngnForUsdc();
    // The resolver would deliver less and signs it; the taker's minimum (here all of `received`) objects.
    const outputAmount = quote.fill.outputAmount - 1_000n;
    const resolverSignature = await signResolver(chain, resolver, { ...quote.fill, outputAmount });
    const bid = { ...quote.bid, outputAmount };
    expect(await revertOf({ ...quote, bid, resolverSignature })).toBe("ReceivedBelowMinimum");
  });

  it("refuses a minimum other than the one the taker signed", async () => {
    const quote = await cngnForUsdc({ slippageBps: 100n });
    const order = { ...quote.order, minReceived: quote.order.minReceived - 1n };
    expect(await revertOf({ ...quote, order })).toBe("TakerLegFailed(InvalidSigner)");
  });

  it("fills the taker's one signature with another resolver's bid, paying the recipient the whole of it", async () => {
    const { usdc, feeController } = chain.deployment;
    // The taker signs for at least `received` less 1 %; the winner's bid is not used: the next one fills.
    const quote = await cngnForUsdc({ slippageBps: 100n });
    const outputAmount = quote.fill.outputAmount - parseUnits("5", 6);
    const fill = { ...quote.fill, outputAmount };
    const next = {
      ...quote,
      fill,
      bid: { ...quote.bid, resolver: nextResolver.address, outputAmount },
      resolverSignature: await signResolver(chain, nextResolver, fill),
    };
    const holders = [nextResolver.address, resolver.address, recipient, feeController];
    const { changes } = await withBalanceChanges(chain, [usdc], holders, () => fill_(next));
    const fee = (outputAmount * FEE_BPS) / 10_000n;
    const received = outputAmount - fee - quote.order.gasFee;
    expect(received).toBeLessThan(quote.received);
    expect(received).toBeGreaterThanOrEqual(quote.order.minReceived);
    expect(changes[0]).toEqual([-outputAmount, 0n, received, fee]);
  });

  it("refuses a taker-pays amount other than the one the taker signed", async () => {
    const quote = await cngnForUsdc();
    const permit = { ...quote.permit, permitted: { ...quote.permit.permitted, amount: quote.takerPays + 1n } };
    const sellAmount = quote.takerPays + 1n;
    const resolverSignature = await signResolver(chain, resolver, { ...quote.fill, sellAmount });
    const bid = { ...quote.bid, sellAmount };
    expect(await revertOf({ ...quote, permit, bid, resolverSignature })).toBe("TakerLegFailed(InvalidSigner)");
  });

  it("refuses a resolver signature over a different output amount", async () => {
    const quote = await cngnForUsdc();
    const resolverSignature = await signResolver(chain, resolver, {
      ...quote.fill,
      outputAmount: quote.fill.outputAmount - 1n,
    });
    expect(await revertOf({ ...quote, resolverSignature })).toBe("InvalidResolverSignature");
  });

  it("refuses an order signed by someone other than its resolver", async () => {
    const quote = await cngnForUsdc();
    const resolverSignature = await signResolver(chain, stranger, quote.fill);
    expect(await revertOf({ ...quote, resolverSignature })).toBe("InvalidResolverSignature");
  });

  it("refuses a Permit2 nonce other than the quote's", async () => {
    const quote = await cngnForUsdc();
    const permit = { ...quote.permit, nonce: quote.permit.nonce + 1n };
    const takerSignature = await signTaker(chain, taker, quote.order, permit);
    expect(await revertOf({ ...quote, permit, takerSignature })).toBe("NonceMismatch");
  });

  it("refuses a gas fee in a token outside the pair", async () => {
    const quote = await cngnForUsdc({ gasFeeToken: chain.deployment.permit2 });
    expect(await revertOf(quote)).toBe("GasFeeTokenNotInPair");
  });

  it("refuses a token the validation contract does not list", async () => {
    const minter = anvilAccount(8);
    const hash = await chain.wallet(minter).deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ["Unlisted", "UNL", 6, minter.address],
    });
    const { contractAddress } = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (!contractAddress) throw new Error("no token deployed");
    const quote = await cngnForUsdc({ buyToken: contractAddress });
    expect(await revertOf(quote)).toBe("TokenNotAllowed");
  });

  it("refuses an order past its deadline", async () => {
    const quote = await cngnForUsdc({ deadline: (await latestTimestamp(chain)) + 30n });
    await chain.testClient.increaseTime({ seconds: 60 });
    await chain.testClient.mine({ blocks: 1 });
    expect(await revertOf(quote)).toBe("OrderExpired");
  });

  it("lets a second keeper of the allowlist (the local pool's) fill as the filler, and refuses a stranger", async () => {
    const second = privateKeyToAccount(localKeeperKeys()[1] as Hex);
    await chain.testClient.setBalance({ address: second.address, value: 10n ** 18n });
    const quote = await cngnForUsdc();
    expect(await revertOf(quote, stranger)).toBe("NotKeeper");
    const receipt = await fill(quote, second);
    const [filled] = parseEventLogs({ abi: rfqExecutorAbi, logs: receipt.logs, eventName: "RfqFilled" });
    expect(filled?.args.filler).toBe(second.address);
    expect(await revertOf(await cngnForUsdc(), stranger)).toBe("NotKeeper");
  });

  it("only lets allow-listed keepers fill, as the owner keeps the list", async () => {
    const quote = await cngnForUsdc();
    expect(await revertOf(quote, stranger)).toBe("NotKeeper");
    expect(await revertOf(quote, owner)).toBe("NotKeeper");

    const setKeeper = async (keeperAddress: Address, allowed: boolean) => {
      const hash = await chain.wallet(owner).writeContract({
        address: chain.deployment.executor,
        abi: rfqExecutorAbi,
        functionName: "setKeeper",
        args: [keeperAddress, allowed],
      });
      await chain.publicClient.waitForTransactionReceipt({ hash });
    };
    await setKeeper(ANVIL_KEEPER, false);
    expect(await revertOf(quote)).toBe("NotKeeper");
    await setKeeper(stranger.address, true);
    await fill(quote, stranger);
  });

  it("lets the taker cancel a signed order through Permit2's invalidateUnorderedNonces", async () => {
    const quote = await cngnForUsdc();
    const wordPos = quote.permit.nonce >> 8n;
    const bit = 1n << (quote.permit.nonce & 0xffn);
    const hash = await chain.wallet(taker).writeContract({
      address: chain.deployment.permit2,
      abi: permit2Abi,
      functionName: "invalidateUnorderedNonces",
      args: [wordPos, bit],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: permit2Abi, logs: receipt.logs, eventName: "UnorderedNonceInvalidation" });
    expect(event?.args).toEqual({ owner: taker.address, word: wordPos, mask: bit });
    const bitmap = await chain.publicClient.readContract({
      address: chain.deployment.permit2,
      abi: permit2Abi,
      functionName: "nonceBitmap",
      args: [taker.address, wordPos],
    });
    expect(bitmap & bit).toBe(bit);
    expect(await revertOf(quote)).toBe("TakerLegFailed(InvalidNonce)");
  });
});

describe("RfqExecutor.fillWithPermit", () => {
  /** The taker's EIP-2612 approval of Permit2 for cNGN, as a wallet signs it. */
  async function erc2612(signer: LocalAccount, owner: Address) {
    const deadline = (await latestTimestamp(chain)) + 300n;
    const nonce = await chain.publicClient.readContract({
      address: chain.deployment.cngn,
      abi: testTokenAbi,
      functionName: "nonces",
      args: [owner],
    });
    const signature = await signer.signTypedData({
      domain: { name: "Test cNGN", version: "1", chainId: chain.chainId, verifyingContract: chain.deployment.cngn },
      types: ERC2612_PERMIT_TYPES,
      primaryType: "Permit",
      message: { owner, spender: chain.deployment.permit2, value: maxUint256, nonce, deadline },
    });
    const { r, s, yParity } = parseSignature(signature);
    return { value: maxUint256, deadline, v: yParity + 27, r, s };
  }

  async function fillWithPermit(quote: SignedParts, permit: Awaited<ReturnType<typeof erc2612>>) {
    const { request } = await chain.publicClient.simulateContract({
      account: keeper,
      address: chain.deployment.executor,
      abi: fillAbi,
      functionName: "fillWithPermit",
      args: [...fillArgs(quote), permit],
    });
    const hash = await chain.wallet(keeper).writeContract(request);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  }

  const permit2Allowance = (owner: Address) =>
    chain.publicClient.readContract({
      address: chain.deployment.cngn,
      abi: testTokenAbi,
      functionName: "allowance",
      args: [owner, chain.deployment.permit2],
    });

  it("settles in one call for a taker that has not approved Permit2", async () => {
    const quote = await cngnForUsdc({ taker: unapprovedTaker });
    expect(await permit2Allowance(unapprovedTaker.address)).toBe(0n);
    expect(await revertOf(quote)).toBe("TakerLegFailed(ERC20InsufficientAllowance)");
    const before = await balanceOf(chain, chain.deployment.cngn, unapprovedTaker.address);

    await fillWithPermit(quote, await erc2612(unapprovedTaker, unapprovedTaker.address));

    expect(await balanceOf(chain, chain.deployment.cngn, unapprovedTaker.address)).toBe(before - quote.fill.sellAmount);
    expect(await permit2Allowance(unapprovedTaker.address)).toBe(maxUint256);
  });

  it("still settles when someone used the permit first", async () => {
    const quote = await cngnForUsdc({ taker: unapprovedTaker });
    const permit = await erc2612(unapprovedTaker, unapprovedTaker.address);
    const hash = await chain.wallet(stranger).writeContract({
      address: chain.deployment.cngn,
      abi: testTokenAbi,
      functionName: "permit",
      args: [
        unapprovedTaker.address,
        chain.deployment.permit2,
        permit.value,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });

    await fillWithPermit(quote, permit);
    expect(await permit2Allowance(unapprovedTaker.address)).toBe(maxUint256);
  });

  it("fails on the missing allowance, not on the permit, when the permit is not the taker's", async () => {
    const quote = await cngnForUsdc({ taker: unapprovedTaker });
    const forged = await erc2612(stranger, unapprovedTaker.address);
    const call = chain.publicClient.simulateContract({
      account: keeper,
      address: chain.deployment.executor,
      abi: fillAbi,
      functionName: "fillWithPermit",
      args: [...fillArgs(quote), forged],
    });
    expect(await revertName(call)).toBe("TakerLegFailed(ERC20InsufficientAllowance)");
  });
});
