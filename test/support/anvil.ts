import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { freePort } from "../e2e/harness";

const require = createRequire(import.meta.url);

export interface AnvilProcess {
  rpcUrl: string;
  chainId: number;
  stop(): Promise<void>;
  /** What anvil printed, for failure messages. */
  output(): string;
}

/**
 * The anvil binary from the `@foundry-rs/anvil-<platform>-<arch>` package npm installed beside
 * `@foundry-rs/anvil`, run directly so stopping it needs no wrapper process to forward signals.
 */
export function anvilBinary(): string {
  const arches: Record<string, string> = { x64: "amd64", arm64: "arm64" };
  const arch = arches[process.arch];
  if (!arch) throw new Error(`anvil: no package for ${process.platform}/${process.arch}`);
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${exe}`);
}

/** A fresh anvil (chain id 31337, the default dev accounts) on a free loopback port, ready for RPC. */
export async function startAnvil(options: { readyTimeoutMs?: number } = {}): Promise<AnvilProcess> {
  const port = await freePort();
  const chainId = 31337;
  const child = spawn(
    anvilBinary(),
    ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId), "--silent"],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = () => kill(child);
  try {
    await waitReady(rpcUrl, child, options.readyTimeoutMs ?? 30_000);
  } catch (e) {
    await stop();
    throw new Error(`anvil did not become ready: ${(e as Error).message}\n${log}`);
  }
  return { rpcUrl, chainId, stop, output: () => log };
}

async function waitReady(rpcUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${rpcUrl} in ${timeoutMs} ms`);
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
