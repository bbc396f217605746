import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { authenticate, connect, getJson, nodeAccount } from "../support/ws-client";

const app = createApp();
const admin = (path: string, method: string, body?: unknown) =>
  app.request(
    path,
    {
      method,
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    env,
  );

describe("requireRegistration", () => {
  it("is published in the configuration record", async () => {
    const res = await app.request("/v1/config", {}, env);
    expect(await res.json()).toMatchObject({ requireRegistration: true, requireTakerProof: true });
  });

  it("closes an unregistered node with not_registered", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(0));
    expect(await socket.next("error")).toMatchObject({ code: "not_registered" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "not_registered" });
  });

  it("welcomes a node once the admin registers it, and closes it again once unregistered", async () => {
    const account = nodeAccount(1);
    expect((await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { name: "beta" })).status).toBe(200);
    const socket = await connect();
    await authenticate(socket, account);
    expect(await socket.next("welcome")).toMatchObject({ address: account.address });
    socket.close();

    await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { registered: false });
    const again = await connect();
    await authenticate(again, account);
    expect(await again.closed).toEqual({ code: 1008, reason: "not_registered" });
  });

  it("closes a connected node's socket once the admin de-registers it", async () => {
    const account = nodeAccount(2);
    expect((await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { name: "gamma" })).status).toBe(200);
    const socket = await connect();
    await authenticate(socket, account);
    expect(await socket.next("welcome")).toMatchObject({ address: account.address });

    const res = await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { registered: false });
    expect(await res.json()).toMatchObject({ registered: false });
    expect(await socket.next("error")).toMatchObject({ code: "not_registered" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "not_registered" });
  });

  it("leaves a node connected when the admin only renames it", async () => {
    const account = nodeAccount(3);
    await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { name: "delta" });
    const socket = await connect();
    await authenticate(socket, account);
    await socket.next("welcome");

    await admin(`/v1/admin/resolvers/${account.address}`, "PUT", { name: "delta-2" });
    const { body } = await getJson<{ nodes: { address: string }[] }>("/v1/nodes");
    expect(body.nodes.map((n) => n.address)).toContain(account.address);
    socket.close();
  });
});
