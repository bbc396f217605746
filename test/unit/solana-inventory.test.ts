import { base64 } from "@scure/base";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProvedKeys } from "../../src/chains/adapter";
import { solanaInventoryReader } from "../../src/chains/solana/inventory";
import { tokenAccount } from "../../src/chains/solana/swap-transaction";
import { localSolana, mintOf } from "../support/solana-swap";

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
const PROGRAM = localSolana.tokens[0]?.tokenProgram ?? "";
const owner = Keypair.generate().publicKey.toBase58();
const NODE: ProvedKeys = {
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  publicKey: "0x04",
  ed25519Key: owner,
};
function ata(mint: string): string {
  const token = localSolana.tokens.find((t) => t.address === mint);
  if (!token) throw new Error(`${mint} is not a local Solana token`);
  return tokenAccount(token, owner).toBase58();
}

/** The first 72 bytes of an SPL token account: mint, owner, amount (u64 little-endian). */
function tokenAccountHead(mint: string, holder: string, amount: bigint): string {
  const data = new Uint8Array(72);
  data.set(new PublicKey(mint).toBytes(), 0);
  data.set(new PublicKey(holder).toBytes(), 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  return base64.encode(data);
}

/** A Solana RPC answering getMultipleAccounts from `accounts` (by address), recording each request. */
function fakeRpc(accounts: Record<string, { owner: string; data: [string, string] }>) {
  const requests: { method: string; params: unknown[] }[] = [];
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    const call = JSON.parse(init.body as string) as { id: number; method: string; params: [string[], unknown] };
    requests.push(call);
    const value = call.params[0].map((a) => accounts[a] ?? null);
    return Response.json({ jsonrpc: "2.0", id: call.id, result: { context: { slot: 1 }, value } });
  });
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("solanaInventoryReader", () => {
  it("reads the node's Solana key's token accounts in one getMultipleAccounts: balance, and allowance the same", async () => {
    const requests = fakeRpc({
      [ata(USDC)]: { owner: PROGRAM, data: [tokenAccountHead(USDC, owner, 7_000_000n), "base64"] },
    });
    const { entries, hasCode } = await solanaInventoryReader(localSolana)(NODE, [CNGN, USDC]);
    // A Solana key is never code: the runtime checks its signatures itself.
    expect(hasCode).toBe(false);
    expect(entries).toEqual([
      // No account: nothing held.
      { chainId: localSolana.chainId, token: CNGN, balance: "0", allowance: "0" },
      { chainId: localSolana.chainId, token: USDC, balance: "7000000", allowance: "7000000" },
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: "getMultipleAccounts",
      params: [[ata(CNGN), ata(USDC)], { commitment: "confirmed", encoding: "base64" }],
    });
  });

  it("counts nothing at the address that is not the key's account of that token, kept by the token's program", async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    fakeRpc({
      [ata(USDC)]: { owner: PROGRAM, data: [tokenAccountHead(USDC, stranger, 5n), "base64"] },
      [ata(CNGN)]: { owner: stranger, data: [tokenAccountHead(CNGN, owner, 5n), "base64"] },
    });
    const { entries } = await solanaInventoryReader(localSolana)(NODE, [CNGN, USDC]);
    expect(entries.map((e) => e.balance)).toEqual(["0", "0"]);
  });

  it("says when an account of the key's, either token's, is owned by another key: given away", async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    const head = (mint: string, holder: string) => ({
      owner: PROGRAM,
      data: [tokenAccountHead(mint, holder, 5n), "base64"] as [string, string],
    });
    const read = async (accounts: Record<string, { owner: string; data: [string, string] }>) => {
      fakeRpc(accounts);
      return (await solanaInventoryReader(localSolana)(NODE, [CNGN, USDC])).ownerChanged;
    };
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: head(CNGN, stranger) })).toBe(true);
    expect(await read({ [ata(USDC)]: head(USDC, stranger) })).toBe(true);
    // Its own accounts, or none (that is `accountMissing`), are not.
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: head(CNGN, owner) })).toBe(false);
    expect(await read({})).toBe(false);
    // Something at the address that is no account of that token is nobody's to give away.
    expect(await read({ [ata(CNGN)]: { ...head(CNGN, stranger), owner: stranger } })).toBe(false);
  });

  it("says when an account of the key's, either token's, is missing: never created or closed", async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    const head = (mint: string, holder: string) => ({
      owner: PROGRAM,
      data: [tokenAccountHead(mint, holder, 5n), "base64"] as [string, string],
    });
    const read = async (accounts: Record<string, { owner: string; data: [string, string] }>) => {
      fakeRpc(accounts);
      return (await solanaInventoryReader(localSolana)(NODE, [CNGN, USDC])).accountMissing;
    };
    // Both its accounts exist, even empty or given away (that is `ownerChanged`): none is missing.
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: head(CNGN, owner) })).toBe(false);
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: head(CNGN, stranger) })).toBe(false);
    // The account a sale of cNGN is paid into, the one it sells USDC from, or both: missing.
    expect(await read({ [ata(USDC)]: head(USDC, owner) })).toBe(true);
    expect(await read({ [ata(CNGN)]: head(CNGN, owner) })).toBe(true);
    expect(await read({})).toBe(true);
    // Something at the address that is no account of that token (another program's, another mint's): missing.
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: { ...head(CNGN, owner), owner: stranger } })).toBe(
      true,
    );
    expect(await read({ [ata(USDC)]: head(USDC, owner), [ata(CNGN)]: head(USDC, owner) })).toBe(true);
  });

  it("reads nothing for a node that proved no Solana key: it holds nothing the relay could move", async () => {
    const requests = fakeRpc({});
    expect(await solanaInventoryReader(localSolana)({ ...NODE, ed25519Key: null }, [CNGN, USDC])).toEqual({
      entries: [],
      hasCode: false,
    });
    expect(requests).toEqual([]);
  });

  it("throws when the RPC does not answer, so the previous read stands", async () => {
    vi.stubGlobal("fetch", async () => new Response("unavailable", { status: 503 }));
    await expect(solanaInventoryReader(localSolana)(NODE, [CNGN, USDC])).rejects.toThrow("HTTP 503");
  });
});
