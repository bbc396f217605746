/**
 * Each party's leg of a fill failing, in the executor and the reactor, with tokens that fail in different
 * ways: the OpenZeppelin test token (short balance or allowance), a token that blacklists an address
 * (reverting with its own error) and a token that returns `false`. The contract names the leg and carries
 * the token's revert data; the relay blames the party the evidence names (docs/contracts.md, "Leg errors";
 * docs/reliability.md, "Blame").
 */
import { randomBytes } from "node:crypto";
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  type Hex,
  maxUint256,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blacklistTokenBytecode } from "../../contracts/out/blacklist-token";
import { falseTokenBytecode } from "../../contracts/out/false-token";
import { ANVIL_DEPLOYER_KEY, anvilAccount, fund } from "../../scripts/lib/evm-deploy";
import { blacklistTokenAbi } from "../../src/chains/evm/abi/blacklist-token";
import { falseTokenAbi } from "../../src/chains/evm/abi/false-token";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import { type LimitAuth, limitFillTypedData, limitTakerTypedData } from "../../src/chains/evm/limit-typed-data";
import { revertOutcome } from "../../src/chains/evm/revert-reasons";
import { decodedRevert } from "../../src/chains/evm/rpc";
import { quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import {
  approvePermit2,
  type Chain,
  FEE_BPS,
  fillAbi,
  latestTimestamp,
  limitAbi,
  newQuoteId,
  revertAfterEach,
  signedQuote,
  startChain,
} from "./chain";

const taker = anvilAccount(1);
const resolver = anvilAccount(3);
const recipient = anvilAccount(5).address;
const stranger = anvilAccount(7).address;
const keeper = anvilAccount(9);
const owner = privateKeyToAccount(ANVIL_DEPLOYER_KEY);

const AMOUNT = parseUnits("1000", 6);
const GAS_FEE = 50_000n;
const FUNDS = parseUnits("10000000", 6);
const FALSE_RETURNED: Hex = `0x${"0".repeat(64)}`;

/** Every error a leg's revert data can be: Permit2's and the test tokens'. */
const innerErrors = [...permit2Abi, ...testTokenAbi, ...blacklistTokenAbi].filter((i) => i.type === "error") as Abi;

let chain: Chain;
let blacklist: Address;
let falseToken: Address;

async function send(
  from: typeof owner | typeof resolver,
  request: Parameters<Chain["publicClient"]["simulateContract"]>[0],
) {
  const hash = await chain.wallet(from).writeContract({ ...request, account: from } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} failed`);
  return receipt;
}

async function deploy(abi: Abi, bytecode: Hex): Promise<Address> {
  const hash = await chain.wallet(owner).deployContract({ abi, bytecode, args: [owner.address] });
  const { contractAddress } = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!contractAddress) throw new Error("no token deployed");
  return contractAddress;
}

beforeAll(async () => {
  chain = await startChain();
  await fund(chain.rpcUrl, chain.deployment, { takers: [taker.address], resolvers: [resolver], amount: FUNDS });
  blacklist = await deploy(blacklistTokenAbi, blacklistTokenBytecode);
  falseToken = await deploy(falseTokenAbi, falseTokenBytecode);
  for (const token of [blacklist, falseToken]) {
    // Listed, so a fill reaches the transfers.
    await send(owner, {
      address: chain.deployment.validation,
      abi: validationAbi,
      functionName: "setTokenAllowed",
      args: [token, true],
    });
    for (const holder of [taker.address, resolver.address]) {
      await send(owner, { address: token, abi: testTokenAbi, functionName: "mint", args: [holder, FUNDS] });
    }
    for (const spender of [chain.deployment.executor, chain.deployment.reactor]) {
      await send(resolver, { address: token, abi: testTokenAbi, functionName: "approve", args: [spender, maxUint256] });
    }
    await approvePermit2(chain, taker, token);
  }
  await approvePermit2(chain, taker, chain.deployment.cngn);
  await approvePermit2(chain, taker, chain.deployment.usdc);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

const blacklisted = (account: Address) =>
  send(owner, {
    address: blacklist,
    abi: blacklistTokenAbi,
    functionName: "setBlacklisted",
    args: [account, true],
  });
const frozen = (account: Address) =>
  send(owner, {
    address: falseToken,
    abi: falseTokenAbi,
    functionName: "setFrozen",
    args: [account, true],
  });
const resolverApproves = (token: Address, spender: Address, amount: bigint) =>
  send(resolver, { address: token, abi: testTokenAbi, functionName: "approve", args: [spender, amount] });

/** One way a leg fails: the trade, what goes wrong before it, and what the contract and the relay say. */
interface Case {
  name: string;
  sell: () => Address;
  buy: () => Address;
  gasIn: "sell" | "buy";
  sellAmount?: bigint;
  /** Breaks the leg; `received` is what the resolver owes the recipient, `settler` the executor or reactor. */
  setup?: (ctx: { received: bigint; settler: Address }) => Promise<unknown>;
  error: "TakerLegFailed" | "ResolverLegFailed" | "RecipientLegFailed" | "FeeLegFailed";
  /** The token's (or Permit2's) own revert data the leg error carries, by error name and first argument. */
  inner: (settler: Address) => { name: string; account?: Address } | { data: Hex };
  reason: string;
  /** The token error says by how much the resolver fell short, and the outcome carries it. */
  short?: true;
}

const cngn = () => chain.deployment.cngn;
const usdc = () => chain.deployment.usdc;

const cases: Case[] = [
  {
    name: "the taker's balance is short (OpenZeppelin token)",
    sell: cngn,
    buy: usdc,
    gasIn: "buy",
    sellAmount: FUNDS + 1n,
    error: "TakerLegFailed",
    inner: () => ({ name: "ERC20InsufficientBalance", account: taker.address }),
    reason: "taker:insufficient_balance",
  },
  {
    name: "the resolver's allowance is short (OpenZeppelin token)",
    sell: cngn,
    buy: usdc,
    gasIn: "buy",
    setup: ({ settler }) => resolverApproves(usdc(), settler, 0n),
    error: "ResolverLegFailed",
    inner: (settler) => ({ name: "ERC20InsufficientAllowance", account: settler }),
    reason: "resolver:insufficient_allowance",
  },
  {
    name: "the resolver's balance covers the recipient but not the fee (OpenZeppelin token): its whole output is pulled first",
    sell: cngn,
    buy: usdc,
    gasIn: "buy",
    setup: async ({ received }) => {
      const balance = await chain.publicClient.readContract({
        address: usdc(),
        abi: testTokenAbi,
        functionName: "balanceOf",
        args: [resolver.address],
      });
      await send(resolver, {
        address: usdc(),
        abi: testTokenAbi,
        functionName: "transfer",
        args: [stranger, balance - received],
      });
    },
    error: "ResolverLegFailed",
    inner: () => ({ name: "ERC20InsufficientBalance", account: resolver.address }),
    reason: "resolver:insufficient_balance",
    short: true,
  },
  {
    name: "the token blacklists the taker",
    sell: () => blacklist,
    buy: usdc,
    gasIn: "buy",
    setup: () => blacklisted(taker.address),
    error: "TakerLegFailed",
    inner: () => ({ name: "Blacklisted", account: taker.address }),
    reason: "taker:transfer_failed",
  },
  {
    name: "the sell token blacklists the resolver",
    sell: () => blacklist,
    buy: usdc,
    gasIn: "buy",
    setup: () => blacklisted(resolver.address),
    error: "ResolverLegFailed",
    inner: () => ({ name: "Blacklisted", account: resolver.address }),
    reason: "resolver:transfer_failed",
  },
  {
    name: "the buy token blacklists the recipient the taker named: the taker's doing, no strike",
    sell: cngn,
    buy: () => blacklist,
    gasIn: "buy",
    setup: () => blacklisted(recipient),
    error: "RecipientLegFailed",
    inner: () => ({ name: "Blacklisted", account: recipient }),
    reason: "taker:recipient_refused",
  },
  {
    name: "the buy token blacklists the fee controller",
    sell: cngn,
    buy: () => blacklist,
    gasIn: "buy",
    setup: () => blacklisted(chain.deployment.feeController),
    error: "FeeLegFailed",
    inner: () => ({ name: "Blacklisted", account: chain.deployment.feeController }),
    reason: "relay:fee_transfer_failed",
  },
  {
    name: "the token returns false for the taker (Permit2's SafeERC20 reverts)",
    sell: () => falseToken,
    buy: usdc,
    gasIn: "buy",
    setup: () => frozen(taker.address),
    error: "TakerLegFailed",
    inner: () => ({ name: "SafeERC20FailedOperation", account: falseToken }),
    reason: "taker:transfer_failed",
  },
  {
    name: "the token returns false for the resolver's short allowance",
    sell: cngn,
    buy: () => falseToken,
    gasIn: "buy",
    setup: ({ settler }) => resolverApproves(falseToken, settler, 0n),
    error: "ResolverLegFailed",
    inner: () => ({ data: FALSE_RETURNED }),
    reason: "resolver:transfer_failed",
  },
  {
    name: "the token returns false for the keeper's gas fee",
    sell: () => falseToken,
    buy: usdc,
    gasIn: "sell",
    setup: () => frozen(keeper.address),
    error: "FeeLegFailed",
    inner: () => ({ data: FALSE_RETURNED }),
    reason: "relay:fee_transfer_failed",
  },
];

/** Simulates as the keeper does, returning the revert as the test sees it and as the relay decodes it. */
async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof BaseError)) throw e;
    const reverted = e.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (!(reverted instanceof ContractFunctionRevertedError)) throw e;
    const args = reverted.data?.args ?? [];
    // The token's revert data is last; a resolver's leg names its resolver first.
    const named = args.length > 1 ? (args[0] as Address) : undefined;
    return { name: reverted.data?.errorName, data: args.at(-1) as Hex, named, decoded: decodedRevert(e) };
  }
  throw new Error("the call did not revert");
}

function expectInner(c: Case, settler: Address, data: Hex) {
  const expected = c.inner(settler);
  if ("data" in expected) {
    expect(data).toBe(expected.data);
    return;
  }
  const inner = decodeErrorResult({ abi: innerErrors, data });
  expect(inner.errorName).toBe(expected.name);
  expect(String(inner.args?.[0]).toLowerCase()).toBe(expected.account?.toLowerCase());
}

describe("RfqExecutor names the failing leg", () => {
  it.each(cases)("$name → $error, $reason", async (c) => {
    const quote = await signedQuote(chain, {
      taker,
      resolver,
      recipient,
      sellToken: c.sell(),
      buyToken: c.buy(),
      sellAmount: c.sellAmount ?? AMOUNT,
      outputAmount: AMOUNT,
      gasFeeToken: c.gasIn === "sell" ? c.sell() : c.buy(),
      gasFee: GAS_FEE,
      deadline: (await latestTimestamp(chain)) + 300n,
    });
    const settler = chain.deployment.executor;
    await c.setup?.({ received: quote.received, settler });
    const { name, data, named, decoded } = await failure(
      chain.publicClient.simulateContract({
        account: keeper,
        address: settler,
        abi: fillAbi,
        functionName: "fill",
        args: [
          quote.order,
          quote.permit,
          taker.address,
          quote.takerSignature,
          [{ ...quote.bid, signature: quote.resolverSignature }],
        ],
      }),
    );
    expect(name).toBe(c.error);
    if (c.error === "ResolverLegFailed") expect(named).toBe(resolver.address);
    expectInner(c, settler, data);
    const parties = {
      taker: taker.address,
      resolver: resolver.address,
      permit2: chain.deployment.permit2,
      executor: settler,
    };
    expect(revertOutcome(decoded, parties)).toEqual({
      kind: "requote",
      reason: c.reason,
      ...(c.short ? { shortfall: expect.any(BigInt) } : {}),
      // The leg names its resolver; a resolver's reason carries it, so only that resolver is struck (docs/legs.md).
      ...(c.error === "ResolverLegFailed" && c.reason.startsWith("resolver:") ? { resolver: resolver.address } : {}),
    });
  });
});

describe("the guarded legs accept what a working token does", () => {
  it("settles a fill between the blacklist token and the token that returns booleans", async () => {
    const quote = await signedQuote(chain, {
      taker,
      resolver,
      recipient,
      sellToken: falseToken,
      buyToken: blacklist,
      sellAmount: AMOUNT,
      outputAmount: AMOUNT,
      gasFeeToken: falseToken,
      gasFee: GAS_FEE,
      deadline: (await latestTimestamp(chain)) + 300n,
    });
    const { request } = await chain.publicClient.simulateContract({
      account: keeper,
      address: chain.deployment.executor,
      abi: fillAbi,
      functionName: "fill",
      args: [
        quote.order,
        quote.permit,
        taker.address,
        quote.takerSignature,
        [{ ...quote.bid, signature: quote.resolverSignature }],
      ],
    });
    const hash = await chain.wallet(keeper).writeContract(request);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    const balance = (token: Address, holder: Address) =>
      chain.publicClient.readContract({ address: token, abi: testTokenAbi, functionName: "balanceOf", args: [holder] });
    expect(await balance(falseToken, keeper.address)).toBe(GAS_FEE);
    expect(await balance(blacklist, recipient)).toBe(quote.received);
  });
});

describe("LimitReactor names the failing leg", () => {
  it.each(cases)("$name → $error, $reason", async (c) => {
    const gasInSell = c.gasIn === "sell";
    const order: LimitAuth = {
      taker: taker.address,
      recipient,
      sellToken: c.sell(),
      buyToken: c.buy(),
      sellAmount: c.sellAmount ?? AMOUNT,
      minOut: AMOUNT / 2n,
      gasFeeToken: gasInSell ? c.sell() : c.buy(),
      maxGasFee: 3n * GAS_FEE,
      deadline: (await latestTimestamp(chain)) + 86_400n,
    };
    const nonce = BigInt(`0x${randomBytes(32).toString("hex")}`);
    const settler = chain.deployment.reactor;
    const takerSignature = await taker.signTypedData(
      limitTakerTypedData({
        chainId: chain.chainId,
        permit2: chain.deployment.permit2,
        reactor: settler,
        nonce,
        order,
      }),
    );
    const bid = {
      resolver: resolver.address,
      quoteId: quoteIdToBytes32(newQuoteId()),
      outputAmount: AMOUNT,
      deadline: (await latestTimestamp(chain)) + 30n,
    };
    const resolverSignature = await resolver.signTypedData(
      limitFillTypedData({
        chainId: chain.chainId,
        reactor: settler,
        fill: { quoteId: bid.quoteId, order, nonce, outputAmount: AMOUNT, deadline: bid.deadline },
      }),
    );
    const received = AMOUNT - (AMOUNT * FEE_BPS) / 10_000n - (gasInSell ? 0n : GAS_FEE);
    await c.setup?.({ received, settler });
    const { name, data, named, decoded } = await failure(
      chain.publicClient.simulateContract({
        account: keeper,
        address: settler,
        abi: limitAbi,
        functionName: "executeLimit",
        args: [order, nonce, takerSignature, bid, resolverSignature, GAS_FEE],
      }),
    );
    expect(name).toBe(c.error);
    if (c.error === "ResolverLegFailed") expect(named).toBe(resolver.address);
    expectInner(c, settler, data);
    const parties = {
      taker: taker.address,
      resolver: resolver.address,
      permit2: chain.deployment.permit2,
      executor: settler,
    };
    expect(revertOutcome(decoded, parties)).toEqual({
      kind: "requote",
      reason: c.reason,
      ...(c.short ? { shortfall: expect.any(BigInt) } : {}),
      ...(c.error === "ResolverLegFailed" && c.reason.startsWith("resolver:") ? { resolver: resolver.address } : {}),
    });
  });
});
