/**
 * `npm run demo -- --chain 103`: a taker swaps cNGN for USDC on the local Solana chain through the relay
 * (docs/local-stack.md, "The demo on Solana"): quote, check and sign the swap transaction, submit, follow
 * it to `final`, then the token balances that moved, read from the chain's JSON-RPC, and the keeper's books.
 */
import { base64 } from "@scure/base";
import { formatUnits, parseUnits } from "viem";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { isEmptySlot, readWireBase64, slotBytes } from "../../src/chains/solana/wire";
import type { RelayConfigRecord } from "../../src/clients/resolver/relay-config";
import { type SplToken, splBalance } from "../../src/clients/resolver/solana-inventory";
import { followToFinal } from "../../src/clients/taker/follow";
import { requestSolanaQuote, type SolanaQuote, submitExecution } from "../../src/clients/taker/relay";
import { signSolanaQuote } from "../../src/clients/taker/solana-swap";
import type { Quote } from "../../src/schemas/quote";
import { keeperBooksLines } from "./demo-books";
import { describeEvent, say } from "./demo-output";
import { LOCAL_TAKER_NUMBERS, localSolanaKeypair } from "./solana-harness/accounts";

type SolanaChainRecord = Extract<RelayConfigRecord["chains"][number], { kind: "solana" }>;

interface Token extends SplToken {
  symbol: string;
  decimals: number;
}

export interface SolanaDemoOptions {
  relayUrl: string;
  /** The Solana chain's JSON-RPC, for balances (the harness of `npm start`). */
  rpcUrl: string;
  /** The chain as the relay publishes it (`GET /v1/config`). */
  chain: SolanaChainRecord;
  /** The local account `taker:<taker>` swaps. */
  taker: number;
  /** cNGN to sell, in whole units. */
  sell: string;
}

export async function solanaDemo(options: SolanaDemoOptions): Promise<void> {
  const { relayUrl, rpcUrl, chain } = options;
  if (!(LOCAL_TAKER_NUMBERS as readonly number[]).includes(options.taker)) {
    throw new Error(
      `--taker ${options.taker}: the local Solana takers are taker:${LOCAL_TAKER_NUMBERS.join(", taker:")}`,
    );
  }
  const token = (symbol: string): Token => {
    const t = chain.tokens.find((x) => x.symbol === symbol);
    if (!t) throw new Error(`the relay's chain ${chain.chainId} has no ${symbol}`);
    return { symbol, address: t.address, tokenProgram: t.tokenProgram, decimals: t.decimals };
  };
  const [sell, buy] = [token("cNGN"), token("USDC")];
  const tokens = [sell, buy];
  const keypair = localSolanaKeypair(`taker:${options.taker}`);
  const taker = keypair.publicKey.toBase58();
  const amount = (t: Token, value: bigint | string) => `${formatUnits(BigInt(value), t.decimals)} ${t.symbol}`;
  say(`relay ${relayUrl}, chain ${chain.chainId} (${chain.name}, ${rpcUrl}); taker taker:${options.taker} ${taker}`);
  const takerBefore = await balancesOf(rpcUrl, taker, tokens);
  say(`taker's balances before: ${tokens.map((t, i) => amount(t, takerBefore[i] ?? 0n)).join(", ")}`);

  // 1. The auction; the winner signs the swap the relay builds, and the quote carries it.
  const quote = await requestSolanaQuote(relayUrl, {
    chainId: chain.chainId,
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: parseUnits(options.sell, sell.decimals).toString(),
    taker,
  });
  say(
    `quoted ${quote.quoteId}: ${amount(sell, quote.sellAmount)} for ${amount(buy, quote.received)} ` +
      `(fee ${amount(tokenOf(tokens, quote.fee.token), quote.fee.amount)}, gas fee ${amount(tokenOf(tokens, quote.gasFee.token), quote.gasFee.amount)}) from ${quote.resolver?.name}`,
  );
  for (const o of quote.offers) {
    say(`  offer ${o.name.padEnd(8)} ${amount(buy, o.outputAmount).padEnd(16)} ${o.status} (${o.latencyMs} ms)`);
  }
  say(`  replies ${JSON.stringify(quote.replies)}`);
  const resolver = winnerKey(quote, [taker, chain.keeper]);
  say(
    `  transaction ${base64.decode(quote.transaction).length} bytes, signed by the winner's Solana key ${resolver}; ` +
      `valid until block height ${quote.lastValidBlockHeight}; expires ${quote.expiresAt}`,
  );

  // Everyone the swap pays or charges, read before anything moves.
  const parties = partiesOf(quote, { taker, resolver, treasury: chain.treasury, keeper: chain.keeper });
  const before = await Promise.all(parties.map((p) => balancesOf(rpcUrl, p.address, tokens)));
  const keeperLamports = await lamports(rpcUrl, chain.keeper);

  // 2. Check that the transaction moves what the quote says, then sign it in the taker's slot.
  const transaction = signSolanaQuote(keypair, quote);
  say(
    `checked the swap against the quote (takerPays ${amount(sell, quote.takerPays)}, memo ${quote.quoteId}) and signed it`,
  );

  // 3. Submit: the keeper adds its signature, pays the fee and sends it.
  const idempotencyKey = crypto.randomUUID();
  const { httpStatus, answer } = await submitExecution(
    relayUrl,
    { quoteId: quote.quoteId, transaction },
    { idempotencyKey },
  );
  if (answer.status !== "submitted") {
    throw new Error(`the relay answered ${httpStatus} ${answer.status}${answer.reason ? `: ${answer.reason}` : ""}`);
  }
  say(
    `submitted: execution ${answer.executionId}, signature ${answer.txHash} (HTTP ${httpStatus}, key ${idempotencyKey})`,
  );

  // 4. Follow it until the chain has finalized its slot.
  const { quote: final, execution } = await followToFinal(relayUrl, quote.quoteId, {
    executionId: answer.executionId,
    timeoutMs: 90_000,
    onEvent: (e) => say(`  ${describeEvent(e, "slot")}`),
    onExecution: (e) => say(`  execution ${e.status}${e.reason ? `: ${e.reason}` : ""}`),
  });
  say(`final: slot ${final.settlement?.block}, fee payer ${execution?.submitter ?? chain.keeper}`);

  // 5. What moved, per party and token.
  const after = await Promise.all(parties.map((p) => balancesOf(rpcUrl, p.address, tokens)));
  say("token balances that changed:");
  for (const [i, party] of parties.entries()) {
    const changes = tokens.flatMap((t, j) => {
      const delta = (after[i]?.[j] ?? 0n) - (before[i]?.[j] ?? 0n);
      return delta === 0n ? [] : [`${delta > 0n ? "+" : "-"}${amount(t, delta > 0n ? delta : -delta)}`];
    });
    say(`  ${party.role.padEnd(20)} ${party.address.padEnd(44)} ${changes.join(", ") || "no change"}`);
  }
  const spent = keeperLamports - (await lamports(rpcUrl, chain.keeper));
  say(`  the keeper paid ${formatUnits(spent, 9)} SOL in transaction fees`);
  checkMoved(final, parties, before, after);

  // 6. What the swap cost the keeper beside what the quote charged for it.
  const feeToken = tokens.find((t) => t.address === execution?.keeper?.charged.token);
  for (const line of keeperBooksLines(execution?.keeper ?? null, "solana", feeToken ?? null)) say(line);
}

/** The transaction's signer whose slot is filled in the quote: the winner (neither the taker nor the keeper). */
function winnerKey(quote: SolanaQuote, others: string[]): string {
  const wire = readWireBase64(quote.transaction);
  if (!wire) throw new Error(`quote ${quote.quoteId}: its transaction cannot be read`);
  const signer = wire.signers.find((s, i) => !others.includes(s) && !isEmptySlot(slotBytes(wire, i)));
  if (!signer) throw new Error(`quote ${quote.quoteId}: no resolver signature in its transaction`);
  return signer;
}

interface Party {
  role: string;
  address: string;
}

/** The taker (also the recipient unless another is named), the resolver, the treasury and the keeper. */
function partiesOf(quote: Quote, keys: { taker: string; resolver: string; treasury: string; keeper: string }): Party[] {
  const recipient = quote.recipient === keys.taker ? [] : [{ role: "recipient", address: quote.recipient }];
  return [
    { role: quote.recipient === keys.taker ? "taker (recipient)" : "taker", address: keys.taker },
    ...recipient,
    { role: `resolver ${quote.resolver?.name ?? ""}`.trim(), address: keys.resolver },
    { role: "treasury (fee)", address: keys.treasury },
    { role: "keeper (gas fee)", address: keys.keeper },
  ];
}

function tokenOf(tokens: Token[], address: string): Token {
  const token = tokens.find((t) => t.address === address);
  if (!token) throw new Error(`${address} is neither side of the swap`);
  return token;
}

function balancesOf(rpcUrl: string, owner: string, tokens: Token[]): Promise<bigint[]> {
  return Promise.all(tokens.map((t) => splBalance(rpcUrl, owner, t)));
}

async function lamports(rpcUrl: string, address: string): Promise<bigint> {
  const { value } = await solanaRpc<{ value: number }>(rpcUrl, "getBalance", [address, { commitment: "confirmed" }]);
  return BigInt(value);
}

/** The recipient got `received` and the taker paid `takerPays`, to the base unit. */
function checkMoved(quote: Quote, parties: Party[], before: bigint[][], after: bigint[][]): void {
  const delta = (address: string, token: number) => {
    const i = parties.findIndex((p) => p.address === address);
    return (after[i]?.[token] ?? 0n) - (before[i]?.[token] ?? 0n);
  };
  // Token 0 is the sell token, 1 the buy token.
  const received = delta(quote.recipient, 1);
  if (received !== BigInt(quote.received)) {
    throw new Error(`the recipient received ${received}, but the quote said ${quote.received}`);
  }
  const paid = -delta(quote.taker, 0);
  if (paid !== BigInt(quote.takerPays))
    throw new Error(`the taker paid ${paid}, but the quote said ${quote.takerPays}`);
}
