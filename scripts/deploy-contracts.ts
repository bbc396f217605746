/**
 * Deploys the settlement contracts onto a fresh anvil at the addresses of the local configuration.
 *
 *   npx tsx scripts/deploy-contracts.ts [--rpc-url http://127.0.0.1:8545] [--fund]
 *
 * `--fund` then gives anvil's accounts the roles they have in every local stack (`LOCAL_ACCOUNTS`,
 * docs/local-stack.md "Accounts"): it mints 1,000,000 of each test token to the resolvers (#1–#4) and the
 * takers (#5–#8), and makes the resolvers approve the executor and the reactor.
 */
import { parseArgs } from "node:util";
import { parseUnits } from "viem";
import { localConfig } from "../src/config/local";
import { anvilAccount, deployContracts, fund } from "./lib/evm-deploy";
import { LOCAL_ACCOUNTS } from "./lib/local-stack";

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string", default: localConfig.chains.find((c) => c.kind === "evm")?.rpcUrl },
    fund: { type: "boolean", default: false },
  },
});
const rpcUrl = values["rpc-url"];
if (!rpcUrl) throw new Error("--rpc-url is required");

const deployment = await deployContracts(rpcUrl);
for (const [name, address] of Object.entries(deployment)) console.log(`${name.padEnd(14)}${address}`);
if (values.fund) {
  const takers = LOCAL_ACCOUNTS.takers.map(anvilAccount);
  const resolvers = LOCAL_ACCOUNTS.resolvers.map(anvilAccount);
  await fund(rpcUrl, deployment, {
    takers: takers.map((t) => t.address),
    resolvers,
    amount: parseUnits("1000000", 6),
  });
  console.log(`funded takers ${takers.map((t) => t.address).join(", ")}`);
  console.log(`funded resolvers ${resolvers.map((r) => r.address).join(", ")} (executor and reactor approved)`);
}
