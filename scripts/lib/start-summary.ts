/**
 * What `npm start` prints once the stack is up (docs/local-stack.md): where everything is, with the
 * local accounts and their public development keys, and each resolver's bids, results and executions as
 * they come.
 */
import { base58 } from "@scure/base";
import type { Keypair } from "@solana/web3.js";
import { formatUnits } from "viem";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { ANVIL_KEEPER, type Deployment, expectedDeployment } from "./evm-deploy";
import { anvilPrivateKey, FUNDED_AMOUNT, LOCAL_ACCOUNTS, LOCAL_RATE, type LocalResolver } from "./local-stack";
import { localSolanaAccounts } from "./solana-harness/accounts";
import { LOCAL_TOKEN_DECIMALS, PARTICIPANT_LAMPORTS, PARTICIPANT_TOKENS } from "./solana-harness/genesis";

const say = (line = "") => console.log(line);

export function logResolver(client: ResolverClient, name: string): void {
  const log = (message: string) => say(`[${name}] ${message}`);
  const { cngn, usdc } = expectedDeployment();
  const { mints } = localSolanaAccounts();
  const symbols = new Map([
    [cngn.toLowerCase(), "cNGN"],
    [usdc.toLowerCase(), "USDC"],
    [mints.cNGN.publicKey.toBase58(), "cNGN"],
    [mints.USDC.publicKey.toBase58(), "USDC"],
  ]);
  const amount = (token: string, value: string | bigint) => {
    const symbol = symbols.get(token.startsWith("0x") ? token.toLowerCase() : token) ?? token;
    return `${formatUnits(BigInt(value), 6)} ${symbol}`;
  };
  client.on("answer", ({ rfq, reply, elapsedMs }) =>
    log(
      reply.type === "bid"
        ? `bid ${rfq.rfqId}: ${amount(rfq.buyToken, reply.outputAmount)} for ${amount(rfq.sellToken, rfq.sellAmount)} (${elapsedMs} ms)`
        : `decline ${rfq.rfqId}: ${reply.reason}`,
    ),
  );
  client.on("signed", ({ rfq, outputAmount, elapsedMs }) =>
    log(`signed ${rfq.rfqId}: the swap moves ${amount(rfq.buyToken, outputAmount)} as bid (${elapsedMs} ms)`),
  );
  client.on("error", ({ error }) => log(`error: ${error.message}`));
  client.on("frame", ({ frame }) => {
    if (frame.type === "result") log(`result ${frame.rfqId}: ${frame.won ? "won" : "lost"}`);
    if (frame.type === "execution") log(`execution ${frame.quoteId}: ${frame.status} ${frame.txHash ?? ""}`);
    if (frame.type === "error") log(`relay error ${frame.code}: ${frame.message}`);
  });
  client.on("close", ({ code, reason }) => log(`socket closed ${code} ${reason}`));
}

export interface StackSummary {
  relayUrl: string;
  rpcUrl: string;
  deployment: Deployment;
  solanaUrl: string | null;
  resolvers: readonly LocalResolver[];
  /** Where the relay's state lives, relative to the repository. */
  state: string;
}

export function printSummary({ relayUrl, rpcUrl, deployment: d, solanaUrl, resolvers, state }: StackSummary): void {
  const amount = formatUnits(FUNDED_AMOUNT, 6);
  const account = (i: number) => `${anvilAccount(i).address}  key ${anvilPrivateKey(i)}`;
  say(`
The local stack is up.

  relay       ${relayUrl}   (wrangler dev; state in ${state})
  chain       ${rpcUrl}   (anvil, chain 31337, a block a second)
  contracts   Permit2 ${d.permit2}   RfqExecutor ${d.executor}
              cNGN ${d.cngn}   USDC ${d.usdc}
              Validation ${d.validation}   FeeController ${d.feeController}
  resolvers   ${resolvers.map((r) => `${r.name.padEnd(6)} #${r.index} ${account(r.index)}`).join("\n              ")}
              (${LOCAL_RATE} USDC per cNGN less their spread, or the oracle band's mid when there is one)
  takers      ${LOCAL_ACCOUNTS.takers.map((i) => `#${i} ${account(i)}`).join("\n              ")}
              (${amount} cNGN and USDC each; spare resolvers #3 and #4 are funded the same)
  keeper      #${LOCAL_ACCOUNTS.keeper} ${ANVIL_KEEPER}
${solanaUrl ? solanaSummary(solanaUrl, resolvers) : ""}
  These are public development keys: they hold value on these local chains only.

  Try it: npm run demo    npm run demo -- --chain 103 (Solana)    npm run demo -- --limit (a limit order)
  Stop: Ctrl-C
`);
}

/** The local Solana chain's accounts (docs/local-stack.md, "Seeded accounts"), with the keys a user needs. */
function solanaSummary(url: string, local: readonly LocalResolver[]): string {
  const { mints, keeper, treasury, resolvers, takers } = localSolanaAccounts();
  const address = (k: Keypair) => k.publicKey.toBase58();
  const key = (k: Keypair) => `  key ${base58.encode(k.secretKey)}`;
  const names = new Map(local.map((r) => [r.index, r.name]));
  const resolverLines = resolvers.map((k, i) => {
    const name = names.get(i + 1);
    return `${(name ?? "spare").padEnd(6)} resolver:${i + 1} ${address(k)}${name ? "" : key(k)}`;
  });
  const takerLines = takers.map((k, i) => `taker:${i + 5} ${address(k)}${key(k)}`);
  const indent = "\n                        ";
  return `
  solana      ${url}   (LiteSVM, chain 103, a slot every 400 ms, from its genesis)
              USDC mint ${address(mints.USDC)}   cNGN mint ${address(mints.cNGN)}
              resolvers ${resolverLines.join(indent)}
              takers    ${takerLines.join(indent)}
              keeper    ${address(keeper)} (KEEPER_SOLANA_KEY)   treasury ${address(treasury)}
              (resolvers and takers: ${formatUnits(PARTICIPANT_LAMPORTS, 9)} SOL and ${formatUnits(PARTICIPANT_TOKENS, LOCAL_TOKEN_DECIMALS)} USDC and cNGN each)
`;
}
