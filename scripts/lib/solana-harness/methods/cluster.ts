/** The methods about the chain itself: slots, blockhashes, epochs, fees, rent, the faucet. */
import { createRequire } from "node:module";
import { PublicKey } from "@solana/web3.js";
import { SLOTS_PER_EPOCH } from "../chain";
import { slotAtCommitment } from "../commitment";
import { transactionFee } from "../fees";
import { invalidParams } from "../jsonrpc";
import { checkMinContextSlot, commitmentOf, configAt, nonNegativeInteger, pubkey, required } from "../params";
import { decodeMessage } from "../wire";
import { type Method, withContext } from "./context";

const LITESVM_VERSION: string = createRequire(import.meta.url)("litesvm/package.json").version;
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;

function slotFor(params: unknown[], ctx: Parameters<Method>[1], index: number): number {
  const config = configAt(params, index);
  checkMinContextSlot(config, ctx.chain.slot);
  return slotAtCommitment(commitmentOf(config), ctx.chain.slot);
}

export const clusterMethods: Record<string, Method> = {
  getHealth: () => "ok",
  // `feature-set` identifies a node's set of active features; LiteSVM activates all of them and has none.
  getVersion: () => ({ "solana-core": `litesvm/${LITESVM_VERSION}`, "feature-set": 0 }),
  getGenesisHash: (_, ctx) => ctx.chain.genesisHash,
  getSlot: (params, ctx) => slotFor(params, ctx, 0),
  // One block per slot: the block height is the slot.
  getBlockHeight: (params, ctx) => slotFor(params, ctx, 0),
  getTransactionCount: (_, ctx) => ctx.chain.ledger.size,

  getEpochInfo: (params, ctx) => {
    const slot = slotFor(params, ctx, 0);
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: Math.floor(slot / SLOTS_PER_EPOCH),
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ctx.chain.ledger.size,
    };
  },

  getEpochSchedule: () => ({
    slotsPerEpoch: SLOTS_PER_EPOCH,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    warmup: false,
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
  }),

  getLatestBlockhash: (params, ctx) => {
    const config = configAt(params, 0);
    checkMinContextSlot(config, ctx.chain.slot);
    const latest = ctx.chain.latestBlockhash(commitmentOf(config));
    return withContext(latest.slot, { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
  },

  isBlockhashValid: (params, ctx) => {
    const blockhash = required(params, 0, "blockhash");
    if (typeof blockhash !== "string") throw invalidParams("blockhash must be a string");
    checkMinContextSlot(configAt(params, 1), ctx.chain.slot);
    return withContext(ctx.chain.slot, ctx.chain.isBlockhashValid(blockhash));
  },

  getFeeForMessage: (params, ctx) => {
    const message = decodeMessage(required(params, 0, "message"));
    checkMinContextSlot(configAt(params, 1), ctx.chain.slot);
    if (!ctx.chain.isBlockhashValid(message.recentBlockhash)) return withContext(ctx.chain.slot, null);
    const keys = message.staticAccountKeys;
    const instructions = message.compiledInstructions.map((ix) => ({
      programId: keys[ix.programIdIndex]?.toBase58() ?? "",
      data: ix.data,
    }));
    return withContext(ctx.chain.slot, transactionFee(message.header.numRequiredSignatures, instructions));
  },

  getMinimumBalanceForRentExemption: (params, ctx) => {
    const length = nonNegativeInteger(required(params, 0, "data length"), "data length");
    return ctx.chain.svm.minimumBalanceForRentExemption(BigInt(length));
  },

  getRecentPrioritizationFees: (params, ctx) => {
    const accounts = params[0] ?? [];
    if (!Array.isArray(accounts)) throw invalidParams("expected an array of addresses");
    if (accounts.length > MAX_PRIORITIZATION_FEE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_ACCOUNTS}`);
    }
    return ctx.chain.ledger.recentPrioritizationFees(ctx.chain.slot, accounts.map(pubkey));
  },

  requestAirdrop: (params, ctx) => {
    const to = new PublicKey(pubkey(required(params, 0, "pubkey")));
    const lamports = nonNegativeInteger(required(params, 1, "lamports"), "lamports");
    return ctx.chain.airdrop(ctx.faucet, to, BigInt(lamports));
  },
};
