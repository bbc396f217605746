/**
 * The methods that read accounts. State is always the latest slot's: a commitment is accepted and does
 * not make a read older (docs/local-stack.md, "The local Solana chain").
 */
import { accountEncoding, accountJson, dataSlice } from "../account-json";
import type { AccountView } from "../balances";
import { invalidParams, RpcError } from "../jsonrpc";
import { checkMinContextSlot, commitmentOf, configAt, pubkey, required } from "../params";
import { isTokenProgram, parseMint, parseTokenAccount, uiTokenAmount } from "../token-state";
import { type Method, type RpcContext, withContext } from "./context";

const MAX_MULTIPLE_ACCOUNTS = 100;

function readConfig(params: unknown[], index: number, ctx: RpcContext) {
  const config = configAt(params, index);
  commitmentOf(config);
  checkMinContextSlot(config, ctx.chain.slot);
  return config;
}

function notTokenAccount(): RpcError {
  return new RpcError(-32602, "Invalid param: not a Token account");
}

function tokenAmountOf(account: AccountView | null, ctx: RpcContext) {
  const token = account ? parseTokenAccount(account.owner, account.data) : null;
  if (!token) throw notTokenAccount();
  const mintAccount = ctx.chain.read(token.mint);
  const mint = mintAccount ? parseMint(mintAccount.owner, mintAccount.data) : null;
  return uiTokenAmount(token.amount, mint?.decimals ?? 0);
}

export const accountMethods: Record<string, Method> = {
  getAccountInfo: (params, ctx) => {
    const address = pubkey(required(params, 0, "pubkey"));
    const config = readConfig(params, 1, ctx);
    const encoding = accountEncoding(config.encoding, "binary");
    const account = ctx.chain.read(address);
    const slice = dataSlice(config.dataSlice);
    return withContext(ctx.chain.slot, account ? accountJson(account, encoding, ctx.chain.read, slice) : null);
  },

  getMultipleAccounts: (params, ctx) => {
    const addresses = required(params, 0, "pubkeys");
    if (!Array.isArray(addresses)) throw invalidParams("expected an array of pubkeys");
    if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    }
    const config = readConfig(params, 1, ctx);
    const encoding = accountEncoding(config.encoding, "base64");
    const slice = dataSlice(config.dataSlice);
    const accounts = addresses.map(pubkey).map((address) => {
      const account = ctx.chain.read(address);
      return account ? accountJson(account, encoding, ctx.chain.read, slice) : null;
    });
    return withContext(ctx.chain.slot, accounts);
  },

  getBalance: (params, ctx) => {
    const address = pubkey(required(params, 0, "pubkey"));
    readConfig(params, 1, ctx);
    return withContext(ctx.chain.slot, ctx.chain.read(address)?.lamports ?? 0n);
  },

  getTokenAccountBalance: (params, ctx) => {
    const address = pubkey(required(params, 0, "pubkey"));
    readConfig(params, 1, ctx);
    return withContext(ctx.chain.slot, tokenAmountOf(ctx.chain.read(address), ctx));
  },

  getTokenSupply: (params, ctx) => {
    const address = pubkey(required(params, 0, "mint"));
    readConfig(params, 1, ctx);
    const account = ctx.chain.read(address);
    const mint = account ? parseMint(account.owner, account.data) : null;
    if (!mint) throw new RpcError(-32602, "Invalid param: not a Token mint");
    return withContext(ctx.chain.slot, uiTokenAmount(mint.supply, mint.decimals));
  },

  getTokenAccountsByOwner: (params, ctx) => {
    const owner = pubkey(required(params, 0, "owner"));
    const filter = configAt(params, 1);
    const config = readConfig(params, 2, ctx);
    const encoding = accountEncoding(config.encoding, "binary");
    const slice = dataSlice(config.dataSlice);
    let mint: string | undefined;
    let programId: string;
    if (filter.mint !== undefined) {
      mint = pubkey(filter.mint);
      const mintAccount = ctx.chain.read(mint);
      if (!mintAccount || !isTokenProgram(mintAccount.owner))
        throw new RpcError(-32602, "Invalid param: could not find mint");
      programId = mintAccount.owner;
    } else if (filter.programId !== undefined) {
      programId = pubkey(filter.programId);
      if (!isTokenProgram(programId)) throw new RpcError(-32602, "Invalid param: unrecognized Token program id");
    } else {
      throw invalidParams("expected a filter: { mint } or { programId }");
    }
    const found = ctx.chain.svm
      .getProgramAccounts(programId as Parameters<typeof ctx.chain.svm.getProgramAccounts>[0])
      .map((a) => ({
        pubkey: a.address as string,
        view: {
          lamports: BigInt(a.lamports),
          owner: programId,
          data: Uint8Array.from(a.data),
          executable: a.executable,
        },
      }))
      .filter(({ view }) => {
        const token = parseTokenAccount(view.owner, view.data);
        return token !== null && token.owner === owner && (mint === undefined || token.mint === mint);
      })
      .map(({ pubkey: address, view }) => ({
        pubkey: address,
        account: accountJson(view, encoding, ctx.chain.read, slice),
      }));
    return withContext(ctx.chain.slot, found);
  },
};
