/**
 * Deploys the settlement contracts onto a real EVM chain and prints the addresses for `RELAY_CONFIG`
 * (docs/deploy.md, step 6). The deployer's key comes from the environment, never the command line:
 *
 *   DEPLOYER_PRIVATE_KEY=0x… npx tsx scripts/deploy-evm.ts --rpc-url https://… \
 *     --tokens 0xcNGN,0xUSDC --keepers 0xKeeper1,0xKeeper2 --fee-bps 10 --treasury 0x… [--owner 0x…] [--permit2 0x…]
 */
import { parseArgs } from "node:util";
import { type Address, getAddress, type Hex, isAddress } from "viem";
import { deployToChain } from "./lib/evm-deploy-chain";

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string" },
    tokens: { type: "string" },
    keepers: { type: "string" },
    "fee-bps": { type: "string" },
    treasury: { type: "string" },
    owner: { type: "string" },
    permit2: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const addresses = (name: string, list: string | undefined): Address[] => {
  const parts = (list ?? "").split(",").map((a) => a.trim());
  if (parts.length === 0 || parts.some((a) => !isAddress(a, { strict: false }))) {
    fail(`--${name} must be addresses separated by commas`);
  }
  return parts.map((a) => getAddress(a));
};
const address = (name: string, value: string | undefined): Address | undefined => {
  if (value === undefined) return undefined;
  if (!isAddress(value, { strict: false })) fail(`--${name} must be an address`);
  return getAddress(value);
};

const deployerKey = process.env.DEPLOYER_PRIVATE_KEY;
if (!deployerKey || !/^0x[0-9a-fA-F]{64}$/.test(deployerKey)) fail("set DEPLOYER_PRIVATE_KEY (0x and 64 hex digits)");
const rpcUrl = values["rpc-url"] ?? fail("--rpc-url is required");
const feeBps = Number(values["fee-bps"]);
if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 1000) fail("--fee-bps must be an integer from 0 to 1000");
const treasury = address("treasury", values.treasury) ?? fail("--treasury is required");

const deployment = await deployToChain({
  rpcUrl,
  deployerKey: deployerKey as Hex,
  tokens: addresses("tokens", values.tokens),
  keepers: addresses("keepers", values.keepers),
  feeBps,
  treasury,
  owner: address("owner", values.owner),
  permit2: address("permit2", values.permit2),
});
console.log(JSON.stringify(deployment, null, 2));
