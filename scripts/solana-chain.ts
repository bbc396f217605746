/**
 * The local Solana chain: LiteSVM behind Solana JSON-RPC on 127.0.0.1:8899, a slot every 400 ms, the
 * local accounts funded. Serves until Ctrl-C. See docs/local-stack.md, "The local Solana chain".
 *
 *   node_modules/.bin/tsx scripts/solana-chain.ts [--port 8899] [--host 127.0.0.1] [--slot-ms 400]
 */
import { parseArgs } from "node:util";
import { base58 } from "@scure/base";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import type { Keypair } from "@solana/web3.js";
import { DEFAULT_SLOT_MS, DEFAULT_SOLANA_PORT, startSolanaHarness } from "./lib/solana-harness/server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: String(DEFAULT_SOLANA_PORT) },
    host: { type: "string", default: "127.0.0.1" },
    "slot-ms": { type: "string", default: String(DEFAULT_SLOT_MS) },
  },
});

const port = Number(values.port);
const slotMs = Number(values["slot-ms"]);
if (!Number.isInteger(port) || port < 0 || port > 65_535 || !Number.isFinite(slotMs) || slotMs <= 0) {
  console.error("usage: tsx scripts/solana-chain.ts [--port 8899] [--host 127.0.0.1] [--slot-ms 400]");
  process.exit(2);
}

let harness: Awaited<ReturnType<typeof startSolanaHarness>>;
try {
  harness = await startSolanaHarness({ port, host: values.host, slotMs });
} catch (err) {
  const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
  console.error(inUse ? `port ${port} is taken: is a local chain already running?` : String(err));
  process.exit(1);
}

const { accounts } = harness;
const usdc = accounts.mints.USDC.publicKey;
const cngn = accounts.mints.cNGN.publicKey;
const row = (name: string, key: Keypair) =>
  `  ${name.padEnd(11)} ${key.publicKey.toBase58().padEnd(44)}  secret ${base58.encode(key.secretKey)}`;

console.log(`local Solana chain on ${harness.url} (a slot every ${slotMs} ms; Ctrl-C stops it)`);
console.log(`  USDC mint   ${usdc.toBase58()}  (6 decimals, mint authority: treasury)`);
console.log(`  cNGN mint   ${cngn.toBase58()}  (6 decimals, mint authority: treasury)`);
console.log("accounts (local keys, worthless anywhere else):");
console.log(row("keeper", accounts.keeper));
console.log(row("treasury", accounts.treasury));
accounts.resolvers.forEach((k, i) => {
  console.log(row(`resolver:${i + 1}`, k));
});
accounts.takers.forEach((k, i) => {
  console.log(row(`taker:${i + 5}`, k));
});
const example = accounts.takers[0]?.publicKey;
if (example) {
  console.log(`e.g. taker:5's USDC account: ${getAssociatedTokenAddressSync(usdc, example).toBase58()}`);
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    harness.stop().finally(() => process.exit(0));
  });
}
