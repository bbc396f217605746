import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { allCorridors } from "../../src/chains/corridor-keys";
import { loadConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { liveNodes } from "../../src/nodes/live";
import { STALE_AFTER_MS } from "../../src/protocol/frame-limits";
import type { Node } from "../../src/schemas/resolvers";
import {
  authenticate,
  connect,
  EVM,
  eventually,
  getJson,
  heartbeat,
  nodeAccount,
  SOL,
  solConnectPath,
} from "../support/ws-client";

const nodes = async () => (await getJson<{ nodes: Node[] }>("/v1/nodes")).body.nodes;
const nodeOf = async (address: string) => (await nodes()).find((n) => n.address === address);
const evmCorridor = () => {
  const key = allCorridors(localConfig).find((c) => c.chain.kind === "evm")?.key as string;
  return env.CORRIDOR.get(env.CORRIDOR.idFromName(key));
};

async function onlineNode(index: number, options: Parameters<typeof authenticate>[2] = {}) {
  const socket = await connect();
  const account = nodeAccount(index);
  await authenticate(socket, account, options);
  await socket.next("welcome");
  return { socket, account };
}

describe("GET /v1/nodes", () => {
  it("shows every field of a node from its last heartbeat", async () => {
    const { socket, account } = await onlineNode(0, { name: "alpha", region: "lagos", signerType: "keyfile" });
    socket.send(heartbeat("quoting", { chains: [{ chainId: EVM.chainId, state: "quoting" }] }));
    const node = await eventually(async () => {
      const n = await nodeOf(account.address);
      expect(n?.lastHeartbeat).not.toBeNull();
      return n as Node;
    });
    expect(node).toStrictEqual({
      address: account.address,
      name: "alpha",
      version: "1.0.0",
      state: "quoting",
      degraded: null,
      region: "lagos",
      signerType: "keyfile",
      fresh: true,
      corridors: [{ chainId: EVM.chainId, baseToken: EVM.usdc, quoteToken: EVM.cngn }],
      inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: "5000000000", allowance: "5000000000" }],
      connectedAt: expect.stringMatching(/Z$/),
      lastHeartbeat: expect.stringMatching(/Z$/),
      chains: [{ chainId: EVM.chainId, state: "quoting", degraded: null }],
    });
    socket.close();
  });

  it("shows a node that has not heartbeated yet as degraded no_heartbeat and not fresh", async () => {
    const { socket, account } = await onlineNode(1);
    expect(await nodeOf(account.address)).toMatchObject({
      state: "degraded",
      degraded: "no_heartbeat",
      fresh: false,
      lastHeartbeat: null,
    });
    socket.close();
  });

  it("follows the state each heartbeat reports", async () => {
    const { socket, account } = await onlineNode(2);
    socket.send(heartbeat("degraded", { degraded: "rpc_lagging" }));
    await eventually(async () =>
      expect(await nodeOf(account.address)).toMatchObject({ state: "degraded", degraded: "rpc_lagging" }),
    );
    socket.send(heartbeat("paused", { degraded: "ignored while paused" }));
    await eventually(async () =>
      expect(await nodeOf(account.address)).toMatchObject({ state: "paused", degraded: null }),
    );
    socket.send(heartbeat("quoting"));
    await eventually(async () =>
      expect(await nodeOf(account.address)).toMatchObject({ state: "quoting", fresh: true }),
    );
    socket.close();
  });

  it("stops calling a node fresh 35 s after its last heartbeat", async () => {
    const { socket, account } = await onlineNode(3);
    socket.send(heartbeat());
    const node = await eventually(async () => {
      const n = await nodeOf(account.address);
      expect(n).toMatchObject({ fresh: true });
      return n as Node;
    });
    // The route's answer (`liveNodes`) at a given time, as it would be 35 s after the heartbeat and a moment later.
    const heardAt = Date.parse(node.lastHeartbeat ?? "");
    const nodeAt = async (now: number) =>
      (await liveNodes(env, loadConfig(env.RELAY_CONFIG), now)).find((n) => n.address === account.address);
    expect(await nodeAt(heardAt + STALE_AFTER_MS)).toMatchObject({ fresh: true });
    expect(await nodeAt(heardAt + STALE_AFTER_MS + 1)).toMatchObject({ fresh: false });
    socket.close();
  });

  it("lists a node on several corridors once, with every corridor", async () => {
    const account = nodeAccount(0);
    const evm = await connect();
    await authenticate(evm, account, { name: "multi" });
    await evm.next("welcome");
    const sol = await connect(solConnectPath);
    await authenticate(sol, account, { name: "multi" });
    await sol.next("welcome");
    const mine = (await nodes()).filter((n) => n.address === account.address);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.corridors).toEqual(
      [
        { chainId: SOL.chainId, baseToken: SOL.usdc, quoteToken: SOL.cngn },
        { chainId: EVM.chainId, baseToken: EVM.usdc, quoteToken: EVM.cngn },
      ].sort((a, b) => a.chainId - b.chainId),
    );
    evm.close();
    sol.close();
  });

  it("drops a node whose sockets all closed", async () => {
    const { socket, account } = await onlineNode(1);
    expect(await nodeOf(account.address)).toBeDefined();
    socket.close();
    await eventually(async () => expect(await nodeOf(account.address)).toBeUndefined());
  });

  it("keeps sockets and their identity across hibernation", async () => {
    const { socket, account } = await onlineNode(2, { name: "sleeper" });
    socket.send(heartbeat("degraded", { degraded: "low_gas" }));
    await eventually(async () => expect(await nodeOf(account.address)).toMatchObject({ state: "degraded" }));
    await evictDurableObject(evmCorridor());
    expect(await nodeOf(account.address)).toMatchObject({
      name: "sleeper",
      state: "degraded",
      degraded: "low_gas",
      inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: "5000000000", allowance: "5000000000" }],
    });
    socket.send(heartbeat("quoting"));
    await eventually(async () => expect(await nodeOf(account.address)).toMatchObject({ state: "quoting" }));
    socket.close();
  });
});
