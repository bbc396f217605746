import { readFileSync } from "node:fs";
import { formatUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import pkg from "../package.json" with { type: "json" };
import {
  buildInventory,
  buildPricer,
  CliError,
  type CliOptions,
  parseCliOptions,
  pickSpareIndex,
  resolveCorridors,
  SPARE_RESOLVER_INDEXES,
  USAGE,
} from "../src/clients/resolver/cli";
import { ResolverClient } from "../src/clients/resolver/client";
import { anvilAccount, parseSolanaSecret, solanaSigner } from "../src/clients/resolver/keys";
import { sameToken } from "../src/clients/resolver/pricing";
import { type ChainInfo, chainsFromRecord, fetchRelayConfig } from "../src/clients/resolver/relay-config";
import { fetchStanding, standingLines } from "../src/clients/resolver/standing";

// The reference resolver: `npm run resolver -- --index 1 --name alpha --rate 0.000633`.
// See docs/reference-resolver.md.

/** Without a key or `--index`: the first spare anvil account not connected to the relay yet, or exit. */
async function spareIndex(relayUrl: string): Promise<number> {
  const res = await fetch(new URL("/v1/nodes", relayUrl));
  const { nodes } = (await res.json()) as { nodes: { address: string }[] };
  const index = pickSpareIndex(
    nodes.map((n) => n.address),
    (i) => anvilAccount(i).address,
  );
  if (index === null) {
    console.error(
      `anvil's spare resolver accounts (${SPARE_RESOLVER_INDEXES.join(", ")}) are all connected already; ` +
        "pass --index N or RESOLVER_KEY to run another node",
    );
    process.exit(2);
  }
  return index;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliOptions(process.argv.slice(2), process.env);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    console.error(`${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const index = options.privateKey ? null : (options.index ?? (await spareIndex(options.relayUrl)));
  const account = options.privateKey ? privateKeyToAccount(options.privateKey) : anvilAccount(index ?? 0);
  const solanaKey = options.solanaKey;
  const solana = solanaKey
    ? solanaSigner(parseSolanaSecret("path" in solanaKey ? readFileSync(solanaKey.path, "utf8") : solanaKey.text))
    : null;
  const record = await fetchRelayConfig(options.relayUrl);
  const chains = chainsFromRecord(record);
  const corridors = resolveCorridors(options.corridors, record, chains);
  const client = new ResolverClient({
    relayUrl: options.relayUrl,
    account,
    name: options.name ?? `resolver-${index ?? account.address.slice(2, 8)}`,
    version: `reference-${pkg.version}`,
    region: options.region,
    signerType: options.signerType,
    solana,
    chains,
    corridors,
    pricer: buildPricer(options.pricing),
    inventory: buildInventory(options, record, chains, account.address, solana?.address ?? null),
    latencyMs: options.latencyMs,
    declineRate: options.declineRate,
    levels: options.levelsEveryMs === 0 ? false : { everyMs: options.levelsEveryMs },
  });
  log("-", `node ${account.address}${solana ? ` solana ${solana.address}` : ""} on ${corridors.length} corridor(s)`);
  attachLog(client, chains);
  // Demoted: the relay's record says why, strike by strike (docs/reliability.md, "A resolver's record").
  client.on("frame", ({ corridor, frame }) => {
    if (frame.type !== "demoted") return;
    log(corridor, `demoted until ${frame.until}: ${frame.reason}`);
    fetchStanding(options.relayUrl, account.address)
      .then((standing) => {
        for (const line of standingLines(standing)) log(corridor, line);
      })
      .catch((e: unknown) => log(corridor, `cannot read this resolver's record: ${(e as Error).message}`));
  });
  client.start();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("-", `${signal}: closing`);
    await client.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** One line per connection, auth, rfq and reply; the corridor by chain and symbols. */
function attachLog(client: ResolverClient, chains: ChainInfo[]): void {
  const label = (key: string) => {
    const [chainId, a, b] = key.split(":");
    const chain = chains.find((c) => String(c.chainId) === chainId);
    const symbol = (t = "") => chain?.tokens.find((x) => sameToken(x.address, t))?.symbol ?? t;
    return `${chainId} ${symbol(a)}/${symbol(b)}`;
  };
  const tokenOf = (chainId: number, address: string) =>
    chains.find((c) => c.chainId === chainId)?.tokens.find((x) => sameToken(x.address, address));
  const amount = (chainId: number, token: string, value: string) => {
    const t = tokenOf(chainId, token);
    return t ? `${formatUnits(BigInt(value), t.decimals)} ${t.symbol}` : `${value} ${token}`;
  };
  client.on("connecting", ({ corridor, url, attempt }) =>
    log(label(corridor), `connecting to ${url}${attempt ? ` (attempt ${attempt + 1})` : ""}`),
  );
  client.on("close", ({ corridor, code, reason }) =>
    log(label(corridor), `closed ${code}${reason ? ` ${reason}` : ""}`),
  );
  client.on("reconnect", ({ corridor, delayMs }) => log(label(corridor), `reconnecting in ${delayMs} ms`));
  client.on("error", ({ corridor, error }) => log(label(corridor), `error: ${error.message}`));
  client.on("sent", ({ corridor, frame }) => {
    if (frame.type === "auth") log(label(corridor), `auth as ${frame.address}`);
  });
  client.on("frame", ({ corridor, frame }) => {
    const at = label(corridor);
    switch (frame.type) {
      case "welcome":
        return log(at, `welcome: ${frame.rfqWindowMs} ms window, band ${frame.band ? frame.band.mid : "none"}`);
      case "rfq":
        return log(
          at,
          `rfq ${frame.rfqId}: sell ${amount(frame.chainId, frame.sellToken, frame.sellAmount)} for ${tokenOf(frame.chainId, frame.buyToken)?.symbol ?? frame.buyToken}`,
        );
      case "result":
        return log(
          at,
          `result ${frame.rfqId}: ${frame.won ? "won" : "lost"}${frame.rank ? ` (rank ${frame.rank})` : ""}`,
        );
      case "sign":
        return log(at, `sign ${frame.rfqId}: won; checking the swap before signing it`);
      case "execution":
        return log(at, `execution ${frame.quoteId}: ${frame.status}${frame.txHash ? ` ${frame.txHash}` : ""}`);
      case "error":
        return log(at, `relay error ${frame.code}: ${frame.message}`);
      default:
        return;
    }
  });
  client.on("signed", ({ corridor, rfq, outputAmount, elapsedMs }) =>
    log(
      label(corridor),
      `signed ${rfq.rfqId}: the swap moves ${amount(rfq.chainId, rfq.buyToken, outputAmount.toString())} as bid (${elapsedMs} ms)`,
    ),
  );
  client.on("answer", ({ corridor, rfq, reply, elapsedMs }) =>
    log(
      label(corridor),
      reply.type === "bid"
        ? `bid ${rfq.rfqId}: ${amount(rfq.chainId, rfq.buyToken, reply.outputAmount)} (${elapsedMs} ms)`
        : `decline ${rfq.rfqId}: ${reply.reason} (${elapsedMs} ms)`,
    ),
  );
}

function log(where: string, message: string): void {
  console.log(`${new Date().toISOString()} [${where}] ${message}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
