/**
 * `npm run demo`: a taker swaps 1,580 cNGN for USDC on the local stack (`npm start`), from the quote to
 * `final`, printing each step: on anvil (31337) by default, on the local Solana chain with `--chain 103`
 * (scripts/lib/solana-demo.ts), ending with the keeper's books for the swap (spent, charged, margin). With `--limit`, a limit order 1 % under the market instead, filled by the
 * keeper's auctions (scripts/lib/limit-demo.ts). The taker side is the `src/clients/taker` library; see
 * docs/local-stack.md.
 *
 *   npm run demo -- [--chain ID] [--relay URL] [--rpc URL] [--taker N] [--sell AMOUNT] [--approve] [--pause S] [--limit]
 */
import { parseArgs } from "node:util";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  formatUnits,
  http,
  type LocalAccount,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseUnits,
  type Transport,
  type WalletClient,
} from "viem";
import { anvil } from "viem/chains";
import { anvilAccount } from "../src/clients/resolver/keys";
import type { RelayConfigRecord } from "../src/clients/resolver/relay-config";
import { followToFinal, SwapNotFinalError } from "../src/clients/taker/follow";
import { permit2Allowance } from "../src/clients/taker/permit";
import { RelayHttpError, requestQuote, submitExecution } from "../src/clients/taker/relay";
import { signForSubmission } from "../src/clients/taker/swap";
import type { Quote } from "../src/schemas/quote";
import { keeperBooksLines } from "./lib/demo-books";
import { describeEvent, say } from "./lib/demo-output";
import { limitDemo } from "./lib/limit-demo";
import { solanaDemo } from "./lib/solana-demo";

const { values } = parseArgs({
  options: {
    relay: { type: "string", default: process.env.RELAY_URL ?? "http://127.0.0.1:8787" },
    chain: { type: "string" },
    rpc: { type: "string" },
    taker: { type: "string", default: "5" },
    sell: { type: "string", default: "15800" },
    approve: { type: "boolean", default: false },
    limit: { type: "boolean", default: false },
    pause: { type: "string", default: "0" },
    slippage: { type: "string", default: "50" },
    help: { type: "boolean", default: false },
  },
});

const USAGE = `npm run demo -- [options]
  --chain ID     the chain to swap on: the relay's first EVM chain (default), or its Solana chain (103)
  --relay URL    the relay (default http://127.0.0.1:8787, or RELAY_URL)
  --rpc URL      the chain's JSON-RPC, for balances and allowances (default http://127.0.0.1:8545, or
                 RPC_URL; on Solana http://127.0.0.1:8899, or SOLANA_RPC_URL)
  --taker N      anvil dev account N is the taker, on Solana the local account taker:N (default 5;
                 npm start funds 5 to 8)
  --sell AMOUNT  cNGN to sell, in whole units (default 15800, 10 USDC: a limit order must cover 3 × the gas fee)
  --slippage BPS EVM: the tolerance below the quote's received the taker signs (default 50, 0.5 %); should
                 the winner fade, the keeper fills the same signature with the next bid that pays at least it
  --approve      EVM: approve Permit2 on chain first (a transaction) instead of sending an EIP-2612 permit
  --pause S      EVM: wait S seconds between the quote and its signature, to watch the quote's explorer page
                 (printed) go from quoted to final; the quote lives 30 s
  --limit        EVM: place a limit order 1 % under the market (the oracle band's mid) and follow it until
                 the keeper's auctions fill it and its quote is final`;

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function approve(address, uint256) returns (bool)",
]);

interface Token {
  symbol: string;
  address: Address;
  decimals: number;
}

async function main(): Promise<void> {
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const relayUrl = values.relay.replace(/\/+$/, "");
  const config = await getConfig(relayUrl);
  const chainId = values.chain === undefined ? config.chainId : Number(values.chain);
  const chosen = config.chains.find((c) => c.chainId === chainId);
  if (chosen?.kind === "solana") {
    if (values.limit) throw new Error("--limit is for EVM chains: the relay serves no limit orders on Solana");
    if (values.approve) throw new Error("--approve is for EVM chains: a Solana taker approves nothing");
    await solanaDemo({
      relayUrl,
      rpcUrl: values.rpc ?? process.env.SOLANA_RPC_URL ?? "http://127.0.0.1:8899",
      chain: chosen,
      taker: Number(values.taker),
      sell: values.sell,
    });
    return;
  }
  if (chainId !== config.chainId) {
    const served = config.chains.map((c) => `${c.chainId} (${c.kind})`).join(", ");
    throw new Error(
      `--chain ${values.chain}: the demo swaps on ${config.chainId} or a Solana chain; the relay runs ${served}`,
    );
  }
  const rpcUrl = values.rpc ?? process.env.RPC_URL ?? "http://127.0.0.1:8545";
  const token = (symbol: string): Token => {
    const t = config.tokens.find((x) => x.symbol === symbol);
    if (!t) throw new Error(`the relay's chain ${config.chainId} has no ${symbol}`);
    return { symbol, address: t.address as Address, decimals: t.decimals };
  };
  const [sell, buy] = [token("cNGN"), token("USDC")];
  const account = anvilAccount(Number(values.taker));
  const chain = { ...anvil, id: config.chainId };
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 250 });
  const amount = (t: Token, value: bigint | string) => `${formatUnits(BigInt(value), t.decimals)} ${t.symbol}`;
  say(`relay ${relayUrl}, chain ${config.chainId}; taker #${values.taker} ${account.address}`);

  if (values.approve) {
    const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
    await approvePermit2(client, wallet, sell, config.permit2 as Address);
  }
  if (values.limit) {
    const options = { relayUrl, client, chainId, account, sell, buy, sellAmount: values.sell, underBps: 100 };
    await limitDemo(options);
    return;
  }

  const before = await balances(client, account.address, [sell, buy]);
  say(`balances before: ${amount(sell, before[0])}, ${amount(buy, before[1])}`);

  // 1. The auction: every connected resolver is asked; the best valid bid becomes the quote.
  const quote = await requestQuote(relayUrl, {
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: parseUnits(values.sell, sell.decimals).toString(),
    taker: account.address,
    slippageBps: Number(values.slippage),
  });
  say(
    `quoted ${quote.quoteId}: ${amount(sell, quote.sellAmount)} for ${amount(buy, quote.received)} ` +
      `(fee ${amount(buy, quote.fee.amount)}, gas fee ${amount(buy, quote.gasFee.amount)}) from ${quote.resolver?.name}`,
  );
  say(`  the taker signs for at least ${amount(buy, quote.minReceived)} (slippage ${quote.slippageBps} bps)`);
  for (const o of quote.offers) {
    say(`  offer ${o.name.padEnd(8)} ${amount(buy, o.outputAmount).padEnd(16)} ${o.status} (${o.latencyMs} ms)`);
  }
  say(`  replies ${JSON.stringify(quote.replies)}; expires ${quote.expiresAt}`);
  say(`  explorer: ${relayUrl}/#/quotes/${quote.quoteId}`);
  const pauseSeconds = Number(values.pause);
  if (pauseSeconds > 0) {
    say(`waiting ${pauseSeconds} s before signing (--pause)`);
    await new Promise((r) => setTimeout(r, pauseSeconds * 1000));
  }

  // 2. Sign the Permit2 transfer; without an allowance for Permit2, an EIP-2612 permit goes along.
  const signed = await signForSubmission(client, account, quote);
  say(
    signed.permit
      ? `signed the quote, and an EIP-2612 permit: Permit2 has no ${sell.symbol} allowance from this taker yet`
      : `signed the quote (Permit2 already holds a ${sell.symbol} allowance)`,
  );

  // 3. Submit: the keeper simulates, broadcasts and pays the gas.
  const idempotencyKey = crypto.randomUUID();
  const { httpStatus, answer } = await submitExecution(relayUrl, signed.request, { idempotencyKey });
  if (answer.status !== "submitted") {
    throw new Error(`the relay answered ${httpStatus} ${answer.status}${answer.reason ? `: ${answer.reason}` : ""}`);
  }
  say(`submitted: execution ${answer.executionId}, tx ${answer.txHash} (HTTP ${httpStatus}, key ${idempotencyKey})`);

  // 4. Follow its event stream until the indexer has confirmed it past the chain's finality depth.
  say(`following ${relayUrl}/v1/quotes/${quote.quoteId}/events`);
  const { quote: final, execution } = await followToFinal(relayUrl, quote.quoteId, {
    executionId: answer.executionId,
    timeoutMs: 90_000,
    onEvent: (e) => say(`  ${describeEvent(e)}`),
    onFallback: (why) => say(`  ${why}: polling GET /v1/quotes/${quote.quoteId} instead`),
    onExecution: (e) => say(`  execution ${e.status}${e.reason ? `: ${e.reason}` : ""}`),
  });
  say(
    `final: block ${final.settlement?.block}, gas used ${execution?.gasUsed ?? "?"}, submitter ${execution?.submitter}`,
  );

  const after = await balances(client, account.address, [sell, buy]);
  const delta = (t: Token, a: bigint, b: bigint) => `${b >= a ? "+" : "-"}${amount(t, b >= a ? b - a : a - b)}`;
  say(
    `balances after:  ${amount(sell, after[0])}, ${amount(buy, after[1])} ` +
      `(${delta(sell, before[0], after[0])}, ${delta(buy, before[1], after[1])})`,
  );
  checkReceived(final, before[1], after[1]);

  // 5. What the fill cost the keeper beside what the quote charged for it.
  const feeToken = config.tokens.find(
    (t) => t.address.toLowerCase() === execution?.keeper?.charged.token.toLowerCase(),
  );
  for (const line of keeperBooksLines(execution?.keeper ?? null, "evm", feeToken ?? null)) say(line);
}

interface ConfigRecord {
  chainId: number;
  permit2: string;
  tokens: { symbol: string; address: string; decimals: number }[];
  chains: RelayConfigRecord["chains"];
}

async function getConfig(relayUrl: string): Promise<ConfigRecord> {
  let res: Response;
  try {
    res = await fetch(`${relayUrl}/v1/config`);
  } catch {
    throw new Error(`cannot reach the relay at ${relayUrl}: start the local stack with npm start`);
  }
  if (!res.ok) throw new Error(`GET /v1/config answered ${res.status}`);
  return (await res.json()) as ConfigRecord;
}

function balances(client: PublicClient, owner: Address, tokens: [Token, Token]): Promise<[bigint, bigint]> {
  const of = (t: Token) =>
    client.readContract({ address: t.address, abi: erc20, functionName: "balanceOf", args: [owner] });
  return Promise.all([of(tokens[0]), of(tokens[1])]);
}

/** The other way to get the sell token to Permit2: one `approve` transaction, paid by the taker. */
async function approvePermit2(
  client: PublicClient,
  wallet: WalletClient<Transport, Chain, LocalAccount>,
  token: Token,
  permit2: Address,
) {
  const account = wallet.account;
  if ((await permit2Allowance(client, { token: token.address, owner: account.address, permit2 })) > 0n) return;
  const hash = await wallet.writeContract({
    address: token.address,
    abi: erc20,
    functionName: "approve",
    args: [permit2, maxUint256],
  });
  await client.waitForTransactionReceipt({ hash });
  say(`approved Permit2 for ${token.symbol} (tx ${hash})`);
}

/**
 * The recipient got what the final record says, to the base unit: the whole of what the filling bid paid
 * (the winner's, or the next one's had it faded), never less than the signed minimum.
 */
function checkReceived(quote: Quote, before: bigint, after: bigint): void {
  if (after - before !== BigInt(quote.received)) {
    throw new Error(`received ${after - before}, but the quote said ${quote.received}`);
  }
  if (after - before < BigInt(quote.minReceived)) {
    throw new Error(`received ${after - before}, less than the signed minimum ${quote.minReceived}`);
  }
}

main().catch((e: unknown) => {
  if (e instanceof RelayHttpError) {
    const hint =
      e.code === "no_offers"
        ? " (no resolver bid: is npm start running its two resolvers?)"
        : e.status === 404 || e.status === 405
          ? " (does this relay serve POST /v1/executions yet?)"
          : "";
    console.error(`relay: ${e.status} ${e.code}: ${e.message}${hint}\n${JSON.stringify(e.body)}`);
  } else if (e instanceof SwapNotFinalError) {
    console.error(`${e.message}\ntimeline: ${JSON.stringify(e.quote?.timeline ?? [])}`);
  } else {
    console.error(e instanceof Error ? e.message : e);
  }
  process.exit(1);
});
