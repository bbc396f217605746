import { env, runInDurableObject } from "cloudflare:test";
import type { PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { CorridorDO } from "../../durable-objects/corridor";
import { createApp } from "../../src/app";
import { corridorKey } from "../../src/chains/corridor-keys";
import { resolverKey } from "../../src/ids";
import { type InventoryCheck, kvCheckStore } from "../../src/nodes/inventory-checks";
import { authMessage } from "../../src/protocol/node-frames";
import type { RelayFrame } from "../../src/protocol/relay-frames";

const app = createApp();

/** anvil's dev accounts 1–4: well-known keys that hold nothing of value. */
export const nodeKeys = [
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
] as const;

export const nodeAccount = (i: number): PrivateKeyAccount => privateKeyToAccount(nodeKeys[i] as `0x${string}`);

export const EVM = {
  chainId: 31337,
  cngn: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  usdc: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
};
export const SOL = {
  chainId: 103,
  usdc: "5rjTgohA7ymupd46E44VKtGtBFoMmC2rMYkVgDZzy7UK",
  cngn: "J5sDF89kt7UFKLm5ytgUg75SReeQdugmihXZWMZcrVnG",
};

export const evmCorridorKey = corridorKey(EVM.chainId, EVM.cngn.toLowerCase(), EVM.usdc.toLowerCase());
export const evmConnectPath = `/v1/corridors/${EVM.chainId}/${EVM.usdc}/${EVM.cngn}/connect`;
export const solCorridorKey = corridorKey(SOL.chainId, SOL.usdc, SOL.cngn);
export const solConnectPath = `/v1/corridors/${SOL.chainId}/${SOL.usdc}/${SOL.cngn}/connect`;

/** A resolver-side socket with a frame queue, for tests. */
export class TestSocket {
  private readonly queue: RelayFrame[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.addEventListener("close", (e) => {
        resolve({ code: e.code, reason: e.reason });
        this.wake();
      });
    });
    ws.addEventListener("message", (e) => {
      this.queue.push(JSON.parse(e.data as string) as RelayFrame);
      this.wake();
    });
    ws.accept();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The next frame of `type` (earlier frames of other types are dropped). */
  async next<T extends RelayFrame["type"]>(type: T, timeoutMs = 3_000): Promise<Extract<RelayFrame, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.queue.findIndex((f) => f.type === type);
      if (i >= 0) {
        const [frame] = this.queue.splice(0, i + 1).slice(-1);
        return frame as Extract<RelayFrame, { type: T }>;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(this.queue)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The `result` of `rfqId`. A node's result comes 50 ms after its auction's answer, so one of an earlier
   * auction, of the same node in an earlier test, may still arrive first: it is skipped.
   */
  async resultOf(rfqId: string, timeoutMs = 3_000): Promise<Extract<RelayFrame, { type: "result" }>> {
    for (;;) {
      const frame = await this.next("result", timeoutMs);
      if (frame.rfqId === rfqId) return frame;
    }
  }

  close(): void {
    this.ws.close(1000, "bye");
  }
}

export async function connect(path = evmConnectPath, environment: Cloudflare.Env = env): Promise<TestSocket> {
  const res = await app.request(path, { headers: { upgrade: "websocket" } }, environment);
  if (res.status !== 101 || !res.webSocket) throw new Error(`no upgrade: ${res.status} ${await res.text()}`);
  return new TestSocket(res.webSocket);
}

export interface AuthOptions {
  name?: string;
  version?: string;
  region?: string;
  signerType?: string;
  solana?: { address: string; signature: (text: string) => string };
  signWith?: PrivateKeyAccount;
}

/** Answers the challenge as `account`; returns the welcome frame. */
export async function authenticate(socket: TestSocket, account: PrivateKeyAccount, options: AuthOptions = {}) {
  const challenge = await socket.next("challenge");
  const text = authMessage(challenge.corridor, challenge.nonce);
  const signature = await (options.signWith ?? account).signMessage({ message: text });
  socket.send({
    type: "auth",
    address: account.address,
    signature,
    name: options.name ?? `node-${account.address.slice(2, 6)}`,
    version: options.version ?? "1.0.0",
    region: options.region ?? "eu-west",
    signerType: options.signerType ?? "keyfile",
    ...(options.solana
      ? { solana: { address: options.solana.address, signature: options.solana.signature(text) } }
      : {}),
  });
  return challenge;
}

export const heartbeat = (
  state: "quoting" | "degraded" | "paused" = "quoting",
  extra: Record<string, unknown> = {},
) => ({
  type: "heartbeat",
  state,
  inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: "5000000000", allowance: "5000000000" }],
  ...extra,
});

export async function getJson<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await app.request(path, init, env);
  return { status: res.status, body: (await res.json()) as T };
}

/** Polls until `check` passes or the time runs out. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/**
 * Waits until the corridor (`key`, the EVM one unless given) has completed its first on-chain read of the
 * node's inventory: before that, the node is not asked for quotes.
 */
export async function untilInventoryChecked(
  address: string,
  environment: Cloudflare.Env = env,
  key = evmCorridorKey,
): Promise<InventoryCheck> {
  const corridor = environment.CORRIDOR.get(environment.CORRIDOR.idFromName(key));
  return eventually(async () => {
    const check = await runInDurableObject(corridor, (_: CorridorDO, state) =>
      kvCheckStore(state.storage.kv).get(resolverKey(address)),
    );
    if (!check) throw new Error(`no inventory read of ${address} has completed`);
    return check;
  });
}
