import { env, runInDurableObject } from "cloudflare:test";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  maxUint256,
  parseEther,
  parseSignature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ChainKeeperDO } from "../../durable-objects/chain-keeper";
import { createApp } from "../../src/app";
import { quoteAmounts } from "../../src/auction/amounts";
import type { RfqTerms } from "../../src/chains/adapter";
import { minReceivedOf } from "../../src/chains/adapter";
import { corridorKey, corridorTag } from "../../src/chains/corridor-keys";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { evmAdapter } from "../../src/chains/evm/adapter";
import {
  completeToSign,
  eip712ToSign,
  type JsonTypedData,
  typedDataFromJson,
} from "../../src/chains/evm/json-typed-data";
import { ERC2612_PERMIT_TYPES } from "../../src/chains/evm/typed-data";
import { feeChargeFor, gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { insertQuoteStatements } from "../../src/db/quote-writes";
import type { QuoteRow } from "../../src/db/quotes";
import { newId } from "../../src/ids";
import { type PendingTx, SqlTxStore } from "../../src/keeper/pending";
import type { SubmitRequest } from "../../src/keeper/rpc";
import { chainKeeperStub, keeperStub } from "../../src/objects";
import type { Execution, Quote, QuoteStatus } from "../../src/schemas/quote";
import { takerSigningOf } from "../support/taker-signing";
import { nodeAccount } from "../support/ws-client";
import { DEPLOYER_KEY, KEEPER_KEY } from "./accounts";
import type { Fault } from "./chain.global";

export const app = createApp();

const chain = primaryEvmChain(localConfig);
export const EVM = {
  chainId: chain.chainId,
  permit2: getAddress(chain.permit2),
  executor: getAddress(chain.executor),
  cngn: getAddress(chain.tokens.find((t) => t.symbol === "cNGN")?.address ?? ""),
  usdc: getAddress(chain.tokens.find((t) => t.symbol === "USDC")?.address ?? ""),
};
export const KEEPER = privateKeyToAccount(KEEPER_KEY);

const anvil = defineChain({
  id: chain.chainId,
  name: "anvil",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [env.TEST_CHAIN_RPC_URL] } },
});
const transport = http(env.TEST_CHAIN_RPC_URL);
export const chainClient = createPublicClient({ chain: anvil, transport });
export const testClient = createTestClient({ chain: anvil, mode: "anvil", transport });
export const walletOf = (account: LocalAccount) => createWalletClient({ account, chain: anvil, transport });
export const deployer = walletOf(privateKeyToAccount(DEPLOYER_KEY));

async function mined(hash: Promise<Hex>): Promise<void> {
  const receipt = await chainClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} failed`);
}

/** A fresh account with some ETH and `tokens` of cNGN and USDC; Permit2 approved for cNGN unless told not to. */
export async function newTaker(options: { tokens?: bigint; approvePermit2?: boolean } = {}): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await testClient.setBalance({ address: account.address, value: parseEther("1") });
  await mint(account.address, options.tokens ?? 10_000_000_000n);
  if (options.approvePermit2 ?? true) await approve(account, EVM.cngn, EVM.permit2, maxUint256);
  return account;
}

/** A fresh resolver: ETH, tokens, and the executor approved for both tokens. */
export async function newResolver(): Promise<LocalAccount> {
  const account = await newTaker({ approvePermit2: false });
  await approve(account, EVM.usdc, EVM.executor, maxUint256);
  await approve(account, EVM.cngn, EVM.executor, maxUint256);
  return account;
}

export async function mint(to: Address, amount: bigint): Promise<void> {
  for (const token of [EVM.cngn, EVM.usdc]) {
    await mined(
      deployer.writeContract({ address: token, abi: testTokenAbi, functionName: "mint", args: [to, amount] }),
    );
  }
}

export async function approve(owner: LocalAccount, token: Address, spender: Address, amount: bigint) {
  await mined(
    walletOf(owner).writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [spender, amount] }),
  );
}

export const balanceOf = (token: Address, holder: Address) =>
  chainClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] });

/** One of the resolvers the global setup funded and approved (anvil accounts 1–4). */
export const fundedResolver = (i: 0 | 1 | 2 | 3) => nodeAccount(i);

export interface SeededQuote {
  quoteId: string;
  quote: QuoteRow;
  typedData: Record<string, unknown>;
}

/**
 * A quote stored as the auction stores it (src/auction/house.ts), won by `resolver` with a real bid
 * signature: cNGN sold for USDC on the local chain, unless told otherwise.
 */
export async function seedQuote(options: {
  taker: Address;
  resolver: LocalAccount;
  /** Who signs the bid; default the resolver. */
  bidSigner?: LocalAccount;
  sellAmount?: bigint;
  outputAmount?: bigint;
  expiresInMs?: number;
  status?: QuoteStatus;
  sellToken?: Address;
  buyToken?: Address;
  /** The native price a priced gas fee was charged at (whole charged tokens per ETH); default the fallback fee. */
  nativePrice?: number;
  /** The taker's tolerance below `received` (docs/settlement.md, "When the winner fades"); default 0. */
  slippageBps?: number;
  /** The losing offers, ranked after the winner's, each with its resolver's real bid signature. */
  others?: { resolver: LocalAccount; outputAmount: bigint }[];
}): Promise<SeededQuote> {
  const now = Date.now();
  const { sellToken = EVM.cngn, buyToken = EVM.usdc } = options;
  const corridor = corridorKey(chain.chainId, sellToken.toLowerCase(), buyToken.toLowerCase());
  // Tagged with its corridor as the auction tags it: the keeper leader finds the quote's chain by it.
  const quoteId = newId("q", corridorTag(corridor));
  const expiresAt = now + (options.expiresInMs ?? 30_000);
  const sellAmount = options.sellAmount ?? 1_580_000_000n;
  const outputAmount = options.outputAmount ?? 1_000_000n;
  const adapter = evmAdapter(chain);
  const gas = gasChargeFor(chain.gasFee, sellToken, buyToken, adapter.sameAddress);
  const fee = feeChargeFor({ tokens: adapter.feeTokens, bps: chain.fee.bps }, sellToken, buyToken, adapter.sameAddress);
  const terms: RfqTerms = {
    corridor,
    rfqId: newId("rfq"),
    quoteId,
    chain,
    taker: options.taker,
    recipient: options.taker,
    sellToken,
    buyToken,
    sellAmount,
    deadline: Math.floor(expiresAt / 1000) + 60,
    gasFeeToken: gas.token,
    slippageBps: options.slippageBps ?? 0,
    fee,
  };
  const amounts = quoteAmounts({ sellAmount, outputAmount, fee, gas });
  if (!amounts) throw new Error("the output does not cover the fees");
  const toSign = eip712ToSign(adapter.bidToSign(terms));
  const signBid = (signer: LocalAccount, output: bigint) =>
    signer.signTypedData(completeToSign(toSign, output) as Parameters<LocalAccount["signTypedData"]>[0]);
  const resolverSignature = await signBid(options.bidSigner ?? options.resolver, outputAmount);
  const signing = takerSigningOf(adapter)(terms, {
    resolver: options.resolver.address,
    amounts,
  });
  const quote: QuoteRow = {
    quoteId,
    rfqId: newId("rfq"),
    chainId: chain.chainId,
    status: options.status ?? "quoted",
    final: false,
    taker: options.taker,
    recipient: options.taker,
    sellToken,
    buyToken,
    sellAmount: sellAmount.toString(),
    received: amounts.received.toString(),
    minReceived: minReceivedOf(amounts.received, options.slippageBps ?? 0).toString(),
    slippageBps: options.slippageBps ?? 0,
    fee: { token: buyToken, amount: amounts.fee.toString() },
    gasFee: {
      token: gas.token,
      amount: gas.amount.toString(),
      source: options.nativePrice === undefined ? "fallback" : "priced",
    },
    nativePrice: options.nativePrice ?? null,
    takerPays: amounts.takerPays.toString(),
    proceeds: amounts.proceeds.toString(),
    offersHash: `0x${"ab".repeat(32)}`,
    band: null,
    quotedAt: new Date(now).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    resolver: { address: options.resolver.address, name: "seeded", solanaAddress: null },
    replies: { valid: 1, rejected: 0, declined: 0, noReply: 0, late: 0 },
    steering: null,
    settlement: null,
    signing: {
      ...signing,
      resolver: options.resolver.address,
      outputAmount: outputAmount.toString(),
      resolverSignature,
      deadline: terms.deadline,
    },
  };
  const offer = {
    resolver: options.resolver.address,
    name: "seeded",
    outputAmount: outputAmount.toString(),
    rank: 1,
    status: "won" as const,
    latencyMs: 5,
    won: true,
    signature: resolverSignature,
  };
  const timeline = [
    { at: quote.quotedAt, event: "requested" as const, detail: null },
    { at: quote.quotedAt, event: "quoted" as const, detail: { latencyMs: 5 } },
  ];
  const others = await Promise.all(
    (options.others ?? []).map(async (o, i) => ({
      resolver: o.resolver.address,
      name: `seeded-${i + 2}`,
      outputAmount: o.outputAmount.toString(),
      rank: i + 2,
      status: "lost" as const,
      latencyMs: 5,
      won: false,
      signature: await signBid(o.resolver, o.outputAmount),
    })),
  );
  await env.DB.batch(insertQuoteStatements(env.DB, quote, [offer, ...others], timeline));
  return { quoteId, quote, typedData: signing.typedData as Record<string, unknown> };
}

/** The taker's signature over a quote's typedData, made from the JSON as a wallet would. */
export function signQuote(taker: LocalAccount, typedData: Record<string, unknown>): Promise<Hex> {
  return taker.signTypedData(
    typedDataFromJson(typedData as JsonTypedData) as Parameters<LocalAccount["signTypedData"]>[0],
  );
}

/** The taker's EIP-2612 approval of Permit2 for cNGN, as a wallet signs it. */
export async function cngnPermit(owner: LocalAccount, value: bigint = maxUint256, deadlineIn = 600) {
  const deadline = BigInt(Math.floor(Date.now() / 1000) + deadlineIn);
  const nonce = await chainClient.readContract({
    address: EVM.cngn,
    abi: testTokenAbi,
    functionName: "nonces",
    args: [owner.address],
  });
  const signature = await owner.signTypedData({
    domain: { name: "Test cNGN", version: "1", chainId: EVM.chainId, verifyingContract: EVM.cngn },
    types: ERC2612_PERMIT_TYPES,
    primaryType: "Permit",
    message: { owner: owner.address, spender: EVM.permit2, value, nonce, deadline },
  });
  const { r, s, yParity } = parseSignature(signature);
  return { value: value.toString(), deadline: deadline.toString(), v: yParity + 27, r, s };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function submit(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await app.request(
    "/v1/executions",
    { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export const getQuote = async (id: string) => (await (await app.request(`/v1/quotes/${id}`, {}, env)).json()) as Quote;

export const getExecution = async (id: string) =>
  (await (await app.request(`/v1/executions/${id}`, {}, env)).json()) as Execution;

/** The keeper leader, which takes every submission. */
export const keeper = () => keeperStub(env);

/** The keeper of the local EVM chain: its wallets sign and broadcast, its storage and indexer follow. */
export const chainKeeper = () => chainKeeperStub(env, EVM.chainId);

/**
 * The keeper's alarm, as the runtime runs it: its one job is the indexer, which the alarm runs even before
 * it is due (src/objects/schedule.ts, `due`). Resolves once a whole pass that started after the call is over (a
 * pass under way, which may have read the store before it, ends first).
 */
const alarm = (obj: ChainKeeperDO): Promise<void> => obj.alarm();

/**
 * Writes the records of the submissions answered so far, as a reader's write-through does: the object
 * writes each a few ms after its answer, and the indexer leaves a transaction alone until then
 * (docs/settlement.md, "The fast path"). A test that runs a pass at once after a 202 writes them first,
 * as the next alarm would find them; each record also schedules the indexer.
 */
async function recordsWritten(obj: ChainKeeperDO, state: DurableObjectState): Promise<void> {
  for (const tx of new SqlTxStore(state.storage).all()) await obj.writeThrough(tx.submission.quoteId);
}

/** One whole indexer pass that starts after the call and after the answered submissions' records, as the keeper's alarm runs it. */
export async function runIndexer(): Promise<void> {
  await runInDurableObject(chainKeeper(), async (obj: ChainKeeperDO, state) => {
    await recordsWritten(obj, state);
    await alarm(obj);
  });
}

/**
 * Indexer passes until the quote passes `check` (alarms may also fire on their own; passes are idempotent).
 * The quote is read again after one more pass, which a pass under way ends before: one of the alarm's may
 * have written D1 and not yet its store, and a test reads both.
 */
export async function indexUntil(quoteId: string, check: (q: Quote) => boolean, passes = 5): Promise<Quote> {
  for (let i = 0; ; i++) {
    await runIndexer();
    if (check(await getQuote(quoteId))) {
      await runInDurableObject(chainKeeper(), alarm);
      const quote = await getQuote(quoteId);
      if (check(quote)) return quote;
    }
    if (i >= passes) return getQuote(quoteId);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a chain's keeper object has in its storage right now, read as the object reads it. */
export const pendingTxs = (stub: ChainKeeperStub = chainKeeper()) =>
  runInDurableObject(stub, (_: ChainKeeperDO, state) => new SqlTxStore(state.storage).all());

type ChainKeeperStub = ReturnType<typeof chainKeeper>;

/**
 * Submits `requests` to a chain's keeper object (`stubOf` gives a stub of it; a stub of a reset object is broken,
 * so each step takes a new one) with their broadcasts held at its RPC before they reach the network, then
 * resets the object (`ctx.abort()`, as an eviction or a deploy does): what a crash mid-broadcast leaves,
 * each quote claimed and each transaction stored as signed. The proxy holds every broadcast, the new
 * instance's recovery included, until `releaseSends`. The stored transactions.
 */
export async function crashAtBroadcast(
  requests: readonly SubmitRequest[],
  stubOf: () => ChainKeeperStub = chainKeeper,
): Promise<PendingTx[]> {
  await setFault("hold-sends");
  const before = await heldSends();
  const answers = requests.map((r) =>
    stubOf()
      .submit(r)
      .then(
        (outcome) => ({ outcome }),
        () => ({ outcome: null }),
      ),
  );
  for (let i = 0; i < 200 && (await heldSends()) < before + requests.length; i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  if ((await heldSends()) < before + requests.length) {
    throw new Error(`the broadcasts did not reach the proxy: ${JSON.stringify(await Promise.race(answers))}`);
  }
  await runInDurableObject(stubOf(), (_: ChainKeeperDO, state) => state.abort("crash mid-broadcast")).catch(() => {});
  for (const { outcome } of await Promise.all(answers)) {
    if (outcome) throw new Error(`answered before the crash: ${JSON.stringify(outcome)}`);
  }
  const stored = await pendingTxs(stubOf());
  return requests.map((r) => {
    const tx = stored.find((t) => t.submission.quoteId === r.quoteId);
    if (!tx) throw new Error(`no transaction stored for ${r.quoteId}`);
    return tx;
  });
}

/** Tells the keeper's RPC proxy how to misbehave (chain.global.ts). */
export async function setFault(mode: Fault): Promise<void> {
  const res = await fetch(`${env.TEST_PROXY_URL}/__fault`, { method: "POST", body: JSON.stringify({ mode }) });
  if (!res.ok) throw new Error(`the proxy said ${res.status}`);
}

/** How many broadcasts or their answers the keeper's RPC proxy holds (`hold-sends`, `hold-send-answers`). */
export async function heldSends(): Promise<number> {
  return (await (await fetch(`${env.TEST_PROXY_URL}/__held`)).json()) as number;
}

/** Lets every held broadcast answer go, and the proxy back to forwarding. */
export async function releaseSends(): Promise<void> {
  await fetch(`${env.TEST_PROXY_URL}/__release`, { method: "POST" });
}

/** Every raw transaction the keeper's RPC proxy has forwarded. */
export async function sentThroughProxy(): Promise<string[]> {
  return (await (await fetch(`${env.TEST_PROXY_URL}/__sent`)).json()) as string[];
}

export const keeperNonce = () => chainClient.getTransactionCount({ address: KEEPER.address });
