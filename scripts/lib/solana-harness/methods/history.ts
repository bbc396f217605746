/**
 * An address's transaction history, as validators answer `getSignaturesForAddress`: newest first, from the
 * ledger of every landed transaction, so a client can list what the chain did with its account without
 * trusting anyone's record of it (docs/local-stack.md, "Methods").
 */

import { confirmationOf, visibleAt } from "../commitment";
import { invalidParams } from "../jsonrpc";
import type { LandedTransaction } from "../ledger";
import { checkMinContextSlot, commitmentOf, configAt, pubkey, required, signature } from "../params";
import type { Method } from "./context";

const MAX_SIGNATURES = 1_000;
/** The SPL Memo program, v1 and v2: validators read memos of either into the history's `memo`. */
const MEMO_PROGRAMS = new Set([
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
]);

/** The transaction's memos as a validator writes them in the history: `[<bytes>] <text>`, joined by `; `. */
export function memoOf(tx: LandedTransaction): string | null {
  const message = tx.wire.tx.message;
  const keys = message.staticAccountKeys.map((k) => k.toBase58());
  const memos = message.compiledInstructions
    .filter((ix) => MEMO_PROGRAMS.has(keys[ix.programIdIndex] ?? ""))
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString("utf8")}`);
  return memos.length > 0 ? memos.join("; ") : null;
}

export const historyMethods: Record<string, Method> = {
  getSignaturesForAddress: (params, ctx) => {
    const address = pubkey(required(params, 0, "address"));
    const config = configAt(params, 1);
    const commitment = commitmentOf(config);
    if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
    checkMinContextSlot(config, ctx.chain.slot);
    const limit = config.limit ?? MAX_SIGNATURES;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES) {
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES}`);
    }
    const before = config.before === undefined || config.before === null ? null : signature(config.before);
    const until = config.until === undefined || config.until === null ? null : signature(config.until);
    const current = ctx.chain.slot;
    let history = ctx.chain.ledger.involving(address).filter((tx) => visibleAt(commitment, tx.slot, current));
    if (before !== null) {
      const at = history.findIndex((tx) => tx.signature === before);
      history = at < 0 ? [] : history.slice(at + 1);
    }
    if (until !== null) {
      const at = history.findIndex((tx) => tx.signature === until);
      if (at >= 0) history = history.slice(0, at);
    }
    return history.slice(0, limit).map((tx) => ({
      signature: tx.signature,
      slot: tx.slot,
      err: tx.execution.err,
      memo: memoOf(tx),
      blockTime: tx.blockTime,
      confirmationStatus: confirmationOf(tx.slot, current).confirmationStatus,
    }));
  },
};
