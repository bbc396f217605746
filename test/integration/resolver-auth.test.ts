import { env } from "cloudflare:test";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { loadConfig } from "../../src/config/load";
import type { Node } from "../../src/schemas/resolvers";
import { SMALL_ORDER_ENCODINGS, smallOrderRSignature } from "../support/ed25519-forgeries";
import { highS, vAsParity } from "../support/signature-variants";
import { authenticate, connect, EVM, getJson, heartbeat, nodeAccount } from "../support/ws-client";

describe("resolver authentication", () => {
  it("challenges, verifies the signature and welcomes the node", async () => {
    const socket = await connect();
    const account = nodeAccount(0);
    const challenge = await authenticate(socket, account, { name: "alpha" });
    expect(challenge.corridor).toBe(`${EVM.chainId}:${EVM.usdc.toLowerCase()}:${EVM.cngn.toLowerCase()}`);
    const welcome = await socket.next("welcome");
    expect(welcome).toMatchObject({
      address: account.address,
      corridor: challenge.corridor,
      rfqWindowMs: loadConfig(env.RELAY_CONFIG).rfqWindowMs,
    });
    socket.send(heartbeat());
    const { body } = await getJson<{ nodes: Node[] }>("/v1/nodes");
    expect(body.nodes.map((n) => n.address)).toContain(account.address);
    socket.close();
  });

  it("closes with bad_signature when the signature is not the address's", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(0), { signWith: nodeAccount(1) });
    expect(await socket.next("error")).toMatchObject({ code: "bad_signature" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "bad_signature" });
  });

  it("closes with bad_signature when the address's own signature has v 0/1 or a high s", async () => {
    for (const change of [vAsParity, highS]) {
      const socket = await connect();
      const account = nodeAccount(0);
      const signWith = { ...account, signMessage: async (m) => change(await account.signMessage(m)) } as typeof account;
      await authenticate(socket, account, { signWith });
      expect(await socket.next("error")).toMatchObject({ code: "bad_signature" });
      expect(await socket.closed).toEqual({ code: 1008, reason: "bad_signature" });
    }
  });

  it("closes with bad_signature on a Solana proof whose R is a small-order point", async () => {
    const socket = await connect();
    const key = localSolanaKeypair("resolver:1");
    const forged = (text: string) =>
      base58.encode(
        smallOrderRSignature(
          key.secretKey.subarray(0, 32),
          new TextEncoder().encode(text),
          SMALL_ORDER_ENCODINGS[1] as Uint8Array,
        ),
      );
    await authenticate(socket, nodeAccount(0), { solana: { address: key.publicKey.toBase58(), signature: forged } });
    expect(await socket.next("error")).toMatchObject({ code: "bad_signature" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "bad_signature" });
  });

  it("takes a key file or one of the two custody services as signerType, and refuses anything else", async () => {
    for (const signerType of ["aws-kms", "fireblocks"]) {
      const socket = await connect();
      await authenticate(socket, nodeAccount(0), { signerType });
      await socket.next("welcome");
      socket.close();
    }
    const socket = await connect();
    await authenticate(socket, nodeAccount(0), { signerType: "hsm-in-a-drawer" });
    const error = await socket.next("error");
    expect(error).toMatchObject({ code: "bad_frame" });
    expect(String(error.message)).toContain("signerType must be one of keyfile, aws-kms, fireblocks");
    expect(await socket.closed).toEqual({ code: 1008, reason: "bad_frame" });
  });

  it("closes a corridor the relay does not serve with unsupported_corridor", async () => {
    const socket = await connect(`/v1/corridors/${EVM.chainId}/${EVM.usdc}/0x${"12".repeat(20)}/connect`);
    expect(await socket.next("error")).toMatchObject({ code: "unsupported_corridor" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "unsupported_corridor" });
  });

  it("refuses a plain HTTP request with 426", async () => {
    const { status, body } = await getJson<{ error: string }>(
      `/v1/corridors/${EVM.chainId}/${EVM.usdc}/${EVM.cngn}/connect`,
    );
    expect(status).toBe(426);
    expect(body.error).toBe("upgrade_required");
  });

  it("closes with bad_frame when the first frame is not auth", async () => {
    const socket = await connect();
    await socket.next("challenge");
    socket.send(heartbeat());
    expect(await socket.closed).toEqual({ code: 1008, reason: "bad_frame" });
  });

  it("closes with bad_frame on an unknown frame type or text that is not JSON", async () => {
    const a = await connect();
    await authenticate(a, nodeAccount(0));
    await a.next("welcome");
    a.send({ type: "gossip" });
    expect(await a.next("error")).toMatchObject({ code: "bad_frame" });
    expect(await a.closed).toEqual({ code: 1008, reason: "bad_frame" });
    const b = await connect();
    b.send("{nope");
    expect(await b.closed).toEqual({ code: 1008, reason: "bad_frame" });
  });

  it("closes with timeout when no auth arrives within 5 s", { timeout: 10_000 }, async () => {
    const socket = await connect();
    await socket.next("challenge");
    const started = Date.now();
    expect(await socket.closed).toEqual({ code: 1008, reason: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  });

  it("replaces a node's older socket on the same corridor", async () => {
    const account = nodeAccount(2);
    const first = await connect();
    await authenticate(first, account);
    await first.next("welcome");
    const second = await connect();
    await authenticate(second, account);
    await second.next("welcome");
    expect(await first.closed).toEqual({ code: 1000, reason: "replaced" });
    second.close();
  });
});
