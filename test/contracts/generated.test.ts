import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

it("the committed ABIs and bytecode are what contracts/src compiles to", async () => {
  const tsx = resolve(root, "node_modules/tsx/dist/cli.mjs");
  const result = await run(process.execPath, [tsx, "scripts/compile-contracts.ts", "--check"], { cwd: root }).catch(
    (e: { stdout: string; stderr: string }) => e,
  );
  expect(result.stderr).toBe("");
  expect(result.stdout).toMatch(/up to date/);
}, 120_000);
