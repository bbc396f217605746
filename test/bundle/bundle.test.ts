import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The Worker's size budget, gzip, all modules (docs/deploy.md, "Bundle size"). Workers allow 3 MiB on the
 * free plan and 10 MiB on the paid one; the budget sits well under, so a dependency that drags in
 * megabytes (a Node-only tool, contract bytecode) fails here long before a deploy would.
 */
const GZIP_BUDGET_KIB = 704;

/** Names only Node tooling carries: none may reach the Worker (docs/architecture.md, "Where each fact lives"). */
const NODE_ONLY_MARKERS = ["litesvm", "@foundry-rs", "solana-harness", "rfqExecutorBytecode", "permit2Bytecode"];

const root = join(import.meta.dirname, "..", "..");
const wrangler = join(root, "node_modules", ".bin", "wrangler");

let outdir = "";
let modules: { name: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), "relay-bundle-"));
  await promisify(execFile)(wrangler, ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    maxBuffer: 16 * 1024 * 1024,
  });
  const names = (await readdir(outdir)).filter((n) => /\.(m?js|wasm)$/.test(n));
  modules = await Promise.all(names.map(async (name) => ({ name, bytes: await readFile(join(outdir, name)) })));
}, 90_000);

afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

describe("the Worker bundle (wrangler deploy --dry-run)", () => {
  it(`builds, and stays under ${GZIP_BUDGET_KIB} KiB gzip`, () => {
    expect(modules.length).toBeGreaterThan(0);
    const raw = modules.reduce((n, m) => n + m.bytes.length, 0);
    const gzip = modules.reduce((n, m) => n + gzipSync(m.bytes).length, 0);
    const kib = (n: number) => (n / 1024).toFixed(1);
    console.log(
      `bundle: ${modules.map((m) => m.name).join(", ")}: ${kib(raw)} KiB, gzip ${kib(gzip)} KiB (budget ${GZIP_BUDGET_KIB} KiB)`,
    );
    expect(gzip / 1024).toBeLessThan(GZIP_BUDGET_KIB);
  });

  it("carries no Node-only tooling", () => {
    const text = modules.map((m) => m.bytes.toString("latin1")).join("\n");
    expect(NODE_ONLY_MARKERS.filter((marker) => text.includes(marker))).toEqual([]);
  });
});
