import { parseEnv } from "node:util";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ANVIL_KEEPER } from "../../scripts/lib/evm-deploy";
import { envFileText, localKeeperVars } from "../../scripts/lib/local-stack";
import { keeperKeypairFromSecret } from "../../src/chains/solana/keeper-key";
import { localConfig } from "../../src/config/local";

describe("the relay's variables file (secrets stay off the command line)", () => {
  it("reads back exactly what was written, JSON included", () => {
    const vars = { RELAY_CONFIG: JSON.stringify({ a: "b c", d: [1, 2] }), KEEPER_PRIVATE_KEY: `0x${"ab".repeat(32)}` };
    expect(parseEnv(envFileText(vars))).toEqual(vars);
  });

  it("refuses a value it could not write literally, and a name that is not a variable", () => {
    expect(() => envFileText({ X: "it's" })).toThrow(/quote or a newline/);
    expect(() => envFileText({ X: "a\nb" })).toThrow(/quote or a newline/);
    expect(() => envFileText({ "A B": "x" })).toThrow(/not a variable name/);
  });
});

describe("the keepers' keys npm start hands to wrangler dev", () => {
  const solanaKeeper = localConfig.chains.find((c) => c.kind === "solana")?.keeper;

  it("are the keys of the keepers the local configuration names, on EVM and on Solana", () => {
    const vars = localKeeperVars({ ADMIN_TOKEN: "local-admin-token" });
    expect(privateKeyToAccount(vars.KEEPER_PRIVATE_KEY as Hex).address).toBe(ANVIL_KEEPER);
    expect(keeperKeypairFromSecret(vars.KEEPER_SOLANA_KEY ?? "").publicKey.toBase58()).toBe(solanaKeeper);
    expect(vars.ADMIN_TOKEN).toBe("local-admin-token");
    expect(parseEnv(envFileText(vars))).toEqual(vars);
  });

  it("give way to what .dev.vars.example sets", () => {
    expect(localKeeperVars({ KEEPER_SOLANA_KEY: "mine" }).KEEPER_SOLANA_KEY).toBe("mine");
  });
});
