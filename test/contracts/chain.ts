import { randomBytes } from "node:crypto";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  type Hex,
  http,
  type LocalAccount,
  maxUint256,
} from "viem";
import { anvil } from "viem/chains";
import { afterEach, beforeEach } from "vitest";
import { deployContracts } from "../../scripts/lib/evm-deploy";
import { blacklistTokenAbi } from "../../src/chains/evm/abi/blacklist-token";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import {
  fillTypedData,
  quoteIdToBytes32,
  quoteNonce,
  type RfqBid,
  type RfqFill,
  type RfqOrder,
  takerTypedData,
} from "../../src/chains/evm/typed-data";
import { localConfig } from "../../src/config/local";
import { startAnvil } from "../support/anvil";

/** The custom errors a fill can revert with outside the settlement contract itself. */
const downstreamErrors = [
  ...permit2Abi.filter((item) => item.type === "error"),
  ...validationAbi.filter((item) => item.type === "error"),
  ...testTokenAbi.filter((item) => item.type === "error"),
  ...blacklistTokenAbi.filter((item) => item.type === "error"),
] as const;

/** Every custom error a fill can revert with, wherever it is raised, so reverts decode by name. */
export const fillAbi = [...rfqExecutorAbi, ...downstreamErrors] as const;

/** The same for the limit-order reactor's fills. */
export const limitAbi = [...limitReactorAbi, ...downstreamErrors] as const;

/** The fee rate the deployment starts with, the local configuration's. */
export const FEE_BPS = BigInt(localConfig.chains.find((c) => c.kind === "evm")?.fee.bps ?? Number.NaN);

/** A fresh anvil with the contracts deployed as in the local stack. */
export async function startChain() {
  const node = await startAnvil();
  try {
    const transport = http(node.rpcUrl);
    const deployment = await deployContracts(node.rpcUrl);
    return {
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      deployment,
      publicClient: createPublicClient({ chain: anvil, transport }),
      testClient: createTestClient({ chain: anvil, mode: "anvil", transport }),
      wallet: (account: LocalAccount) => createWalletClient({ account, chain: anvil, transport }),
      stop: () => node.stop(),
    };
  } catch (e) {
    await node.stop();
    throw e;
  }
}

export type Chain = Awaited<ReturnType<typeof startChain>>;

/** Each test of a file starts from the chain its `beforeAll` left: a snapshot before the test, reverted after it. */
export function revertAfterEach(chainOf: () => Chain): void {
  let snapshot: Hex;
  beforeEach(async () => {
    snapshot = await chainOf().testClient.snapshot();
  });
  afterEach(async () => {
    await chainOf().testClient.revert({ id: snapshot });
  });
}

/** The custom error a call reverted with, decoded; throws if it did not revert. */
export async function revertError(call: Promise<unknown>) {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof BaseError)) throw e;
    const reverted = e.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) return reverted;
    throw e;
  }
  throw new Error("the call did not revert");
}

const legErrors = new Set(["TakerLegFailed", "ResolverLegFailed", "FeeLegFailed"]);

/**
 * The name of the custom error a call reverted with; a failed leg's as `Leg(Inner)`, naming the error it
 * carries (docs/contracts.md, "Leg errors"), or `Leg(<data>)` when no known error matches it.
 */
export async function revertName(call: Promise<unknown>): Promise<string | undefined> {
  const reverted = await revertError(call);
  const name = reverted.data?.errorName ?? reverted.reason;
  if (!name || !legErrors.has(name)) return name;
  // The token's revert data is the leg error's last argument (a resolver's leg names its resolver first).
  const inner = reverted.data?.args?.at(-1) as Hex;
  try {
    return `${name}(${decodeErrorResult({ abi: downstreamErrors, data: inner }).errorName})`;
  } catch {
    return `${name}(${inner})`;
  }
}

export async function balanceOf(chain: Chain, token: Address, holder: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: testTokenAbi,
    functionName: "balanceOf",
    args: [holder],
  });
}

/** How `action` changed each holder's balance of each token: `changes[token][holder]`. */
export async function withBalanceChanges<T>(
  chain: Chain,
  tokens: Address[],
  holders: Address[],
  action: () => Promise<T>,
) {
  const balances = () => Promise.all(tokens.map((t) => Promise.all(holders.map((h) => balanceOf(chain, t, h)))));
  const before = await balances();
  const result = await action();
  const after = await balances();
  return { result, changes: after.map((row, i) => row.map((b, j) => b - (before[i]?.[j] ?? 0n))) };
}

export async function approvePermit2(chain: Chain, owner: LocalAccount, token: Address): Promise<void> {
  const hash = await chain.wallet(owner).writeContract({
    address: token,
    abi: testTokenAbi,
    functionName: "approve",
    args: [chain.deployment.permit2, maxUint256],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

export function newQuoteId(): string {
  return `q_${randomBytes(16).toString("hex")}`;
}

export interface QuoteTerms {
  taker: LocalAccount;
  resolver: LocalAccount;
  recipient: Address;
  sellToken: Address;
  buyToken: Address;
  sellAmount: bigint;
  /** What the resolver bids to deliver. */
  outputAmount: bigint;
  gasFeeToken: Address;
  gasFee: bigint;
  deadline: bigint;
  /** The fee rate the relay applies; default the deployment's. */
  feeBps?: bigint;
  /** The taker's tolerance below `received`, in basis points; default 0 (`minReceived` is `received`). */
  slippageBps?: bigint;
}

/**
 * A quote as the relay would build it from a winning bid: the amounts split as docs/api.md ("Amounts") says,
 * the order (what the taker gets at least: `received` less `slippageBps`), the Permit2 message, the filling
 * bid, and both parties' signatures made with the shared typed data.
 */
export async function signedQuote(chain: Chain, terms: QuoteTerms) {
  const quoteId = newQuoteId();
  const gasInBuy = terms.gasFeeToken === terms.buyToken;
  const fee = (terms.outputAmount * (terms.feeBps ?? FEE_BPS)) / 10_000n;
  const received = terms.outputAmount - fee - (gasInBuy ? terms.gasFee : 0n);
  const order: RfqOrder = {
    quoteId: quoteIdToBytes32(quoteId),
    recipient: terms.recipient,
    buyToken: terms.buyToken,
    minReceived: (received * (10_000n - (terms.slippageBps ?? 0n))) / 10_000n,
    gasFeeToken: terms.gasFeeToken,
    gasFee: terms.gasFee,
    deadline: terms.deadline,
  };
  // The one leg, for the whole sell amount; `resolverSignature` is its signature (a test may swap it).
  const bid: Omit<RfqBid, "signature"> = {
    resolver: terms.resolver.address,
    sellAmount: terms.sellAmount,
    outputAmount: terms.outputAmount,
  };
  const takerPays = terms.sellAmount + (terms.gasFeeToken === terms.sellToken ? terms.gasFee : 0n);
  const permit = {
    permitted: { token: terms.sellToken, amount: takerPays },
    nonce: quoteNonce(quoteId),
    deadline: terms.deadline,
  };
  const fill: RfqFill = {
    quoteId: order.quoteId,
    taker: terms.taker.address,
    sellToken: terms.sellToken,
    sellAmount: terms.sellAmount,
    buyToken: terms.buyToken,
    outputAmount: terms.outputAmount,
    deadline: terms.deadline,
  };
  return {
    quoteId,
    order,
    bid,
    received,
    fee,
    permit,
    fill,
    takerPays,
    takerSignature: await signTaker(chain, terms.taker, order, permit),
    resolverSignature: await signResolver(chain, terms.resolver, fill),
  };
}

export function signTaker(
  chain: Chain,
  taker: LocalAccount,
  order: RfqOrder,
  permit: { permitted: { token: Address; amount: bigint }; nonce: bigint; deadline: bigint },
): Promise<Hex> {
  return taker.signTypedData(
    takerTypedData({
      chainId: chain.chainId,
      permit2: chain.deployment.permit2,
      executor: chain.deployment.executor,
      sellToken: permit.permitted.token,
      takerPays: permit.permitted.amount,
      nonce: permit.nonce,
      deadline: permit.deadline,
      order,
    }),
  );
}

export function signResolver(chain: Chain, resolver: LocalAccount, fill: RfqFill): Promise<Hex> {
  return resolver.signTypedData(fillTypedData({ chainId: chain.chainId, executor: chain.deployment.executor, fill }));
}

export async function latestTimestamp(chain: Chain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}
