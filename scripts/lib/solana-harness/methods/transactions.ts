/**
 * The methods that send, simulate and look up transactions, with the errors validators answer:
 * -32002 for a failed preflight (the simulation's err and logs in `data`), -32003 for a bad signature.
 */
import { accountEncoding, accountJson } from "../account-json";
import type { Simulation } from "../chain";
import { confirmationOf, STATUS_CACHE_SLOTS, visibleAt } from "../commitment";
import { invalidParams, RpcError } from "../jsonrpc";
import { checkMinContextSlot, commitmentOf, configAt, pubkey, required, signature } from "../params";
import { parsedInnerInstructions, transactionEncoding, transactionJson } from "../transaction-json";
import { transactionErrorMessage } from "../tx-errors";
import { decodeTransaction, type WireTransaction, wireEncoding } from "../wire";
import { type Method, type RpcContext, withContext } from "./context";

export const PREFLIGHT_FAILURE = -32002;
export const SIGNATURE_VERIFICATION_FAILURE = -32003;
const MAX_SIGNATURE_STATUSES = 256;

function verified(wire: WireTransaction, ctx: RpcContext): void {
  if (!ctx.chain.signaturesVerify(wire)) {
    throw new RpcError(SIGNATURE_VERIFICATION_FAILURE, "Transaction signature verification failure");
  }
}

interface SimulationOptions {
  accounts?: unknown[] | null;
  innerInstructions?: unknown[] | null;
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: number } | null;
}

/**
 * A simulation as validators answer it, in `simulateTransaction` and in the `data` of a failed preflight:
 * with the fee (null when the transaction would not run), the lamport and token balances of its accounts
 * before and after, and the addresses its lookup tables load (docs/local-stack.md, "Methods").
 */
function simulationResult(sim: Simulation, options: SimulationOptions = {}) {
  return {
    err: sim.execution.err,
    logs: sim.execution.logs,
    accounts: options.accounts ?? null,
    unitsConsumed: sim.execution.unitsConsumed,
    returnData: sim.execution.returnData,
    innerInstructions: options.innerInstructions ?? null,
    replacementBlockhash: options.replacementBlockhash ?? null,
    fee: sim.fee,
    preBalances: sim.preBalances,
    postBalances: sim.postBalances,
    preTokenBalances: sim.preTokenBalances,
    postTokenBalances: sim.postTokenBalances,
    loadedAddresses: sim.loadedAddresses,
  };
}

function simulatedAccounts(sim: Simulation, config: unknown, ctx: RpcContext): unknown[] | null {
  if (config === undefined || config === null) return null;
  const { addresses, encoding } = config as { addresses?: unknown; encoding?: unknown };
  if (!Array.isArray(addresses)) throw invalidParams("accounts.addresses must be an array");
  const as = accountEncoding(encoding, "base64");
  if (as === "binary" || as === "base58") throw invalidParams("base58 encoding not supported for accounts");
  return addresses.map(pubkey).map((address) => {
    const account = sim.postAccounts.get(address) ?? ctx.chain.read(address);
    return account ? accountJson(account, as, ctx.chain.read) : null;
  });
}

export const transactionMethods: Record<string, Method> = {
  sendTransaction: (params, ctx) => {
    const config = configAt(params, 1);
    const wire = decodeTransaction(required(params, 0, "transaction"), wireEncoding(config.encoding, "base58"));
    commitmentOf(config, "preflightCommitment");
    checkMinContextSlot(config, ctx.chain.slot);
    if (config.skipPreflight !== true) {
      verified(wire, ctx);
      const sim = ctx.chain.simulate(wire);
      if (sim.execution.err !== null) {
        const message = `Transaction simulation failed: ${transactionErrorMessage(sim.execution.err)}`;
        throw new RpcError(PREFLIGHT_FAILURE, message, simulationResult(sim));
      }
    }
    // Without preflight, what a leader would drop is dropped silently: the signature is answered anyway.
    ctx.chain.land(wire);
    return wire.signature;
  },

  simulateTransaction: (params, ctx) => {
    const config = configAt(params, 1);
    const wire = decodeTransaction(required(params, 0, "transaction"), wireEncoding(config.encoding, "base58"));
    commitmentOf(config);
    checkMinContextSlot(config, ctx.chain.slot);
    const replace = config.replaceRecentBlockhash === true;
    if (config.sigVerify === true) {
      if (replace) throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
      verified(wire, ctx);
    }
    const sim = ctx.chain.simulate(wire, { replaceRecentBlockhash: replace });
    const latest = ctx.chain.latestBlockhash("processed");
    return withContext(
      ctx.chain.slot,
      simulationResult(sim, {
        accounts: simulatedAccounts(sim, config.accounts, ctx),
        innerInstructions:
          config.innerInstructions === true
            ? parsedInnerInstructions(sim.execution.innerInstructions, sim.accountKeys)
            : null,
        replacementBlockhash: replace
          ? { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight }
          : null,
      }),
    );
  },

  getSignatureStatuses: (params, ctx) => {
    const signatures = required(params, 0, "signatures");
    if (!Array.isArray(signatures)) throw invalidParams("expected an array of signatures");
    if (signatures.length > MAX_SIGNATURE_STATUSES) {
      throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    }
    const searchHistory = configAt(params, 1).searchTransactionHistory === true;
    const current = ctx.chain.slot;
    const statuses = signatures.map(signature).map((sig) => {
      const landed = ctx.chain.ledger.get(sig);
      if (!landed) return null;
      // Without searchTransactionHistory a validator answers from its status cache only.
      if (!searchHistory && current - landed.slot > STATUS_CACHE_SLOTS) return null;
      const err = landed.execution.err;
      return {
        slot: landed.slot,
        ...confirmationOf(landed.slot, current),
        err,
        status: err === null ? { Ok: null } : { Err: err },
      };
    });
    return withContext(current, statuses);
  },

  getTransaction: (params, ctx) => {
    const sig = signature(required(params, 0, "signature"));
    const raw = params[1];
    const config = typeof raw === "string" ? { encoding: raw } : configAt(params, 1);
    const encoding = transactionEncoding(config.encoding);
    const commitment = commitmentOf(config);
    if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
    const max = config.maxSupportedTransactionVersion;
    if (max !== undefined && max !== null && max !== 0) {
      throw invalidParams("unsupported maxSupportedTransactionVersion: the highest supported is 0");
    }
    const landed = ctx.chain.ledger.get(sig);
    if (!landed || !visibleAt(commitment, landed.slot, ctx.chain.slot)) return null;
    return transactionJson(landed, encoding, max === 0 ? 0 : undefined);
  },
};
