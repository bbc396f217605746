/**
 * Allows (or, with `--allowed false`, removes) a keeper wallet on the executor and the reactor, as their
 * owner (docs/operations.md, "Rotate a keeper key"). The owner's key comes from the environment:
 *
 *   OWNER_PRIVATE_KEY=0x… npx tsx scripts/set-keeper.ts --rpc-url https://… --contracts 0xExecutor,0xReactor \
 *     --keeper 0xNewKeeper [--allowed false]
 */
import { parseArgs } from "node:util";
import { getAddress, type Hex, isAddress } from "viem";
import { setKeeper } from "./lib/evm-deploy-chain";

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string" },
    contracts: { type: "string" },
    keeper: { type: "string" },
    allowed: { type: "string", default: "true" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const ownerKey = process.env.OWNER_PRIVATE_KEY;
if (!ownerKey || !/^0x[0-9a-fA-F]{64}$/.test(ownerKey)) fail("set OWNER_PRIVATE_KEY (0x and 64 hex digits)");
const contracts = (values.contracts ?? "").split(",").map((a) => a.trim());
if (contracts.some((a) => !isAddress(a, { strict: false }))) fail("--contracts must be addresses separated by commas");
if (!values.keeper || !isAddress(values.keeper, { strict: false })) fail("--keeper must be an address");
if (values.allowed !== "true" && values.allowed !== "false") fail("--allowed is true or false");

await setKeeper({
  rpcUrl: values["rpc-url"] ?? fail("--rpc-url is required"),
  ownerKey: ownerKey as Hex,
  contracts: contracts.map((a) => getAddress(a)),
  keeper: getAddress(values.keeper),
  allowed: values.allowed === "true",
});
console.log(
  `keeper ${getAddress(values.keeper)} ${values.allowed === "true" ? "allowed" : "removed"} on ${contracts.join(", ")}`,
);
