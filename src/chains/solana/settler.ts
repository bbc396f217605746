import { base64 } from "@scure/base";
import type { Keypair } from "@solana/web3.js";
import type { SolanaChain } from "../../config";
import { blamed } from "../../states";
import {
  type ChainSettler,
  type FillRequest,
  type Preflight,
  type SettlementScheme,
  type SignedFill,
  settlerLog,
  type TakerCheck,
  type TxReceipt,
  type TxStatus,
} from "../settler";
import { keeperKeypairFromSecret } from "./keeper-key";
import { RECIPIENT_ACCOUNT_CLOSED } from "./recipient-rent";
import { solanaRpc } from "./rpc";
import {
  recipientAccountClosed,
  type SwapStatus,
  sendSwap,
  signAsFeePayer,
  simulateSwap,
  swapFailureReason,
  swapReceipt,
  swapStatuses,
  takerHolds,
  transactionId,
  unpricedRecipientCreation,
} from "./settler-rpc";
import { checkTakerTransaction } from "./swap-checks";
import { KEEPER_INSUFFICIENT_FUNDS } from "./swap-failures";
import { swapFillsOf } from "./swap-fill";
import type { SwapReceipt } from "./swap-receipt";

/** What the auction stored for a Solana quote (src/chains/solana/adapter.ts): the parts settlement reads. */
interface StoredSolanaSigning {
  transaction: string;
  lastValidBlockHeight: number;
  /** Whether the gas fee charged the recipient's account's rent; true for a quote stored before it was kept. */
  createsRecipientAccount: boolean;
  /** A swap of several makers (docs/legs.md): each leg's resolver, by the Solana key that signs its leg. */
  legSigners: ReadonlyMap<string, string>;
}

function storedSigning(request: FillRequest): StoredSolanaSigning {
  const signing = request.signing as
    | (Partial<Omit<StoredSolanaSigning, "legSigners">> & { legSigners?: { resolver?: unknown; key?: unknown }[] })
    | null;
  if (typeof signing?.transaction !== "string" || typeof signing.lastValidBlockHeight !== "number") {
    throw new Error(`quote ${request.quoteId} has no stored Solana transaction`);
  }
  const { transaction, lastValidBlockHeight, createsRecipientAccount } = signing;
  const legSigners = new Map<string, string>();
  for (const { resolver, key } of Array.isArray(signing.legSigners) ? signing.legSigners : []) {
    if (typeof resolver === "string" && typeof key === "string") legSigners.set(key, resolver);
  }
  return { transaction, lastValidBlockHeight, createsRecipientAccount: createsRecipientAccount !== false, legSigners };
}

const log = settlerLog;

/**
 * Solana settlement (docs/settlement.md, "The keeper's steps on Solana"): the taker's signed transaction
 * in `transaction`, the keeper's ed25519 secret in `KEEPER_SOLANA_KEY`.
 */
export function solanaSettlement(chain: SolanaChain): SettlementScheme {
  return {
    secretName: "KEEPER_SOLANA_KEY",
    submissionField: "transaction",
    submissionHint: "required: the quote is on a Solana chain, so send its transaction signed by the taker",
    // The taker signed a transaction that names the winner: a fade needs the taker again (a requote).
    withBid: () => null,
    // One key: a pool of Solana fee payers is not done (every swap names the configured keeper).
    withKeys(secret) {
      if (!secret) return null;
      let keeper: Keypair;
      try {
        keeper = keeperKeypairFromSecret(secret);
      } catch (e) {
        log("keeper_key_invalid", { chainId: chain.chainId, error: e instanceof Error ? e.message : String(e) });
        return null;
      }
      // Every swap names the configured keeper as its fee payer: another key could not sign one.
      if (keeper.publicKey.toBase58() !== chain.keeper) {
        log("keeper_key_mismatch", {
          chainId: chain.chainId,
          configured: chain.keeper,
          key: keeper.publicKey.toBase58(),
        });
        return null;
      }
      return [solanaSettler(chain, keeper)];
    },
  };
}

/** Whether the submission's transaction is the quote's, signed by the taker and changed in nothing else. No RPC. */
async function verifyTaker(request: FillRequest): Promise<TakerCheck> {
  const check = checkTakerTransaction(storedSigning(request).transaction, request.signature, request.taker);
  return check.ok ? { ok: true } : { ok: false, code: "bad_transaction", reason: check.reason };
}

/**
 * The fill's preflight. The taker's balance, and its recipient's account when the quote took it as
 * existing, are read beside the simulation and judged first, so a taker short of it is told so by
 * evidence, and a recipient's account closed since it was priced is refused before the keeper could pay
 * its rent (the simulation would pass: the keeper can pay it).
 */
async function simulated(chain: SolanaChain, keeper: Keypair, request: FillRequest): Promise<Preflight> {
  const { rpcUrl } = chain;
  const keeperAddress = keeper.publicKey.toBase58();
  const signed = signAsFeePayer(request.signature, keeper);
  const stored = storedSigning(request);
  const raw = base64.decode(stored.transaction);
  const [holds, closed, simulation] = await Promise.all([
    takerHolds(rpcUrl, raw),
    recipientAccountClosed(rpcUrl, raw, keeperAddress, stored.createsRecipientAccount),
    simulateSwap(rpcUrl, signed.raw),
  ]);
  if (!holds) return { kind: "requote", reason: blamed("taker", "insufficient_balance") };
  if (closed) return { kind: "requote", reason: RECIPIENT_ACCOUNT_CLOSED };
  if (!simulation.ok) {
    // The keeper's own shortage is no taker's or resolver's to fix: 503 not_leader, the quote left open.
    if (simulation.reason === KEEPER_INSUFFICIENT_FUNDS)
      return { kind: "keeper_refused", reason: KEEPER_INSUFFICIENT_FUNDS };
    // A swap of several makers names the resolver whose leg failed, by the key that signed it (docs/legs.md).
    const leg = simulation.resolver === undefined ? undefined : stored.legSigners.get(simulation.resolver);
    return { kind: "requote", reason: simulation.reason, ...(leg ? { resolver: leg } : {}) };
  }
  const call = { to: chain.program, data: base64.encode(signed.raw) };
  return { kind: "prepared", fill: { call, gas: BigInt(simulation.unitsConsumed) } };
}

/**
 * Settlement on one Solana chain as its keeper: the transaction is the quote's own, checked byte for
 * byte; the keeper signs it as fee payer, simulates it, and sends the same bytes until it lands or its
 * blockhash expires. Solana orders nothing by nonce, so no nonce is taken or stored (`nonce` is 0).
 */
function solanaSettler(chain: SolanaChain, keeper: Keypair): ChainSettler {
  const rpcUrl = chain.rpcUrl;
  const keeperAddress = keeper.publicKey.toBase58();

  function receiptOf(tx: SignedFill, swap: SwapReceipt): TxReceipt {
    const { quoteId, taker, sellToken, buyToken, gasFeeToken, feeToken = buyToken } = tx.request;
    const fills = swapFillsOf(chain, swap, { quoteId, taker, sellToken, buyToken, gasFeeToken, feeToken });
    // One fill per maker; of a swap of several, each names the relay's resolver whose key signed it.
    const { legSigners } = storedSigning(tx.request);
    const named = fills.map((f) => {
      const node = legSigners.get(f.resolver);
      return node ? { ...f, node } : f;
    });
    return {
      hash: tx.hash,
      status: swap.status,
      block: swap.slot,
      // The chain's own time and units, or null: a receipt never stands in the relay's clock or a 0 for them.
      blockTime: swap.blockTime,
      gasUsed: swap.unitsConsumed,
      keeperSpent: swap.keeperSpent,
      from: keeperAddress,
      fills: named,
    };
  }

  /**
   * A landed swap that created the recipient's account at the keeper's expense though its quote charged no
   * rent for it: closed after the pre-flight's read, in the moment before the swap landed. The receipt's
   * created accounts are the evidence, logged with the taker's reason (docs/security.md, "A recipient's
   * token account closed for its rent"): a landed swap carries no reason.
   */
  function unpricedRentPaid(tx: SignedFill, swap: SwapReceipt): void {
    const rentPriced = storedSigning(tx.request).createsRecipientAccount;
    const account = unpricedRecipientCreation(base64.decode(tx.raw), keeperAddress, rentPriced);
    if (account === null || !swap.created.includes(account)) return;
    const { quoteId, taker } = tx.request;
    log("recipient_rent_unpriced", {
      chainId: chain.chainId,
      quoteId,
      taker,
      account,
      reason: RECIPIENT_ACCOUNT_CLOSED,
    });
  }

  /** Where a swap stands once its signature's status was read. */
  async function statusOf(tx: SignedFill, status: SwapStatus): Promise<TxStatus> {
    switch (status.state) {
      case "dropped":
        return { state: "dropped" };
      case "pending": {
        // Sent without retries by the node: the same bytes again, until they land or expire.
        const resent = await sendSwap(rpcUrl, base64.decode(tx.raw));
        if (resent.status === "refused")
          log("resend_refused", { chainId: chain.chainId, txHash: tx.hash, reason: resent.reason });
        return { state: "pending" };
      }
      case "reverted": {
        const swap = await swapReceipt(rpcUrl, tx.hash);
        // The same leg-by-leg blame as the simulation's, from the landed transaction's error.
        const reason = await swapFailureReason(rpcUrl, base64.decode(tx.raw), status.err, []);
        return { state: "reverted", reason, gasUsed: swap?.unitsConsumed ?? null };
      }
      case "landed": {
        const swap = await swapReceipt(rpcUrl, tx.hash);
        if (swap) unpricedRentPaid(tx, swap);
        return swap ? { state: "landed", receipt: receiptOf(tx, swap) } : { state: "pending" };
      }
    }
  }

  return {
    chainId: chain.chainId,
    keeper: keeperAddress,

    // The taker's signature is checked here, with no RPC, while the chain simulates.
    preflight: (request) => ({ taker: verifyTaker(request), fill: simulated(chain, keeper, request) }),

    // The blockhash is the quote's own and no nonce orders a Solana swap: nothing to read before signing.
    ready: async () => {},

    async sign(request, fill, record) {
      const raw = fill.call.data;
      const tx: SignedFill = { hash: transactionId(base64.decode(raw)), raw, nonce: 0, call: fill.call, request };
      record(tx);
      return tx;
    },

    // No nonces: a refused transaction leaves nothing waiting behind it.
    release: async (_tx, forget) => forget(),
    fillGaps: async () => {},
    gapOpen: () => false,

    broadcast: (tx) => sendSwap(rpcUrl, base64.decode(tx.raw)),

    // `sendSwap` looks the signature up first: a swap the chain has is `known`, one it lost is sent again.
    recover: (tx) => sendSwap(rpcUrl, base64.decode(tx.raw)),

    async statuses(txs) {
      const swaps = txs.map((tx) => ({
        signature: tx.hash,
        lastValidBlockHeight: storedSigning(tx.request).lastValidBlockHeight,
      }));
      const found = await swapStatuses(rpcUrl, swaps);
      return txs.map((tx, i) => () => statusOf(tx, found[i] ?? { state: "pending" }));
    },

    replacement: null,

    replace: () => Promise.reject(new Error("Solana transactions are not replaced")),

    head: () => solanaRpc<number>(rpcUrl, "getSlot", [{ commitment: "finalized" }]),

    isFinal: (slot, finalizedSlot) => slot <= finalizedSlot,
  };
}
