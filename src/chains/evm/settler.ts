import { type Address, type Hex, keccak256, parseTransaction } from "viem";
import type { EvmChain } from "../../config";
import type { NonceStore } from "../nonce-store";
import { type ChainSettler, type SettlementScheme, type SignedFill, settlerLog } from "../settler";
import { isFinal } from "./finality";
import { parseKeeperKeys } from "./keeper-key";
import { NonceGaps } from "./nonce-gaps";
import { NonceCursor } from "./nonces";
import { rpc } from "./rpc";
import { broadcast, statusOf } from "./settler-broadcast";
import { type ChainShared, chainShared } from "./settler-client";
import { raisedFees } from "./settler-fees";
import { evmPreflight } from "./settler-preflight";
import { evmReceipts } from "./settler-receipt";
import { evmWallet, feesNow, minedNonce, presence, signCall } from "./settler-wallet";
import { withBid } from "./stored-signing";

/** The gas of a nonce filler: a plain transfer's (docs/settlement.md, "Nonce gaps"). */
const FILLER_GAS = 21_000n;

/**
 * EVM settlement: the taker's Permit2 signature in `signature`, the keeper's hex keys in
 * `KEEPER_PRIVATE_KEY` (one, or a pool separated by commas: docs/settlement.md, "The wallet pool").
 */
export function evmSettlement(chain: EvmChain): SettlementScheme {
  return {
    secretName: "KEEPER_PRIVATE_KEY",
    submissionField: "signature",
    submissionHint: "required: the quote is on an EVM chain, so send the taker's signature",
    withBid,
    withKeys(secret, nonces) {
      const keys = parseKeeperKeys(secret);
      if (!keys) return null;
      const shared = chainShared(chain);
      return keys.map((key) => evmSettler(chain, key, nonces, shared));
    },
  };
}

/**
 * Settlement on one EVM chain through its JSON-RPC endpoint (fetch-based, so it runs in workerd) from
 * one keeper wallet, with its own nonce sequence kept in `nonces` and in memory, and the chain's fee data
 * shared with the other wallets of the pool (`shared`).
 */
function evmSettler(chain: EvmChain, keeperKey: Hex, nonces: NonceStore, shared: ChainShared): ChainSettler {
  const wallet = evmWallet(chain, keeperKey, nonces, shared);
  const { account, client, fees, contracts, adapter, nonceKey } = wallet;
  const cursor = new NonceCursor({ address: nonceKey, keeper: account.address }, nonces, () =>
    rpc("reading the keeper's nonce", () =>
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    ),
  );
  const gaps = new NonceGaps({
    address: nonceKey,
    nonces,
    signFiller: async (nonce) => signCall(wallet, nonce, FILLER_GAS, account.address, "0x", await feesNow(wallet)),
    broadcast: (tx) => broadcast(wallet, tx),
    minedNonce: () => minedNonce(wallet),
    notSent: (filler, reason) =>
      settlerLog("filler_not_sent", { chainId: chain.chainId, nonce: filler.nonce, txHash: filler.hash, reason }),
  });

  return {
    chainId: chain.chainId,
    keeper: account.address,

    preflight: (request, now) => evmPreflight(wallet, request, now),

    async ready() {
      await Promise.all([cursor.ready(), fees.ready()]);
    },

    async sign(request, fill, record) {
      // Both kept in memory after `ready`: no RPC here, but for a wallet's very first use.
      const nonce = await cursor.peek();
      const { call, gas } = fill;
      const raw = await signCall(wallet, nonce, gas, call.to as Address, call.data as Hex, await feesNow(wallet));
      const tx: SignedFill = { hash: keccak256(raw), raw, nonce, call, request };
      cursor.take(nonce, () => record(tx));
      return tx;
    },

    async release(tx, forget) {
      // Nothing was handed out after it: the wallet's next transaction takes the nonce again.
      if (nonces.next(nonceKey) === tx.nonce + 1) return cursor.forget(tx.nonce, forget);
      // A later transaction of the wallet waits on this nonce: a transfer of nothing to itself takes it.
      await gaps.fill(tx.nonce, forget);
    },

    fillGaps: () => gaps.resend(),

    gapOpen: () => gaps.open,

    broadcast: (tx) => broadcast(wallet, tx),

    async recover(tx) {
      return (await presence(wallet, tx.hash)) === "known" ? { status: "known" } : broadcast(wallet, tx);
    },

    async statuses(txs) {
      const { executor, reactor } = contracts;
      const hashes = txs.map((tx) => tx.hash);
      const receipts = await evmReceipts(chain.rpcUrl, { executor, reactor }, hashes, adapter.sameAddress);
      return txs.map((tx, i) => () => statusOf(wallet, tx, receipts[i] ?? null));
    },

    replacement: {
      afterMs: chain.replacement.afterSeconds * 1000,
      maxBumps: chain.replacement.maxBumps,
    },

    async replace(tx) {
      const before = parseTransaction(tx.raw as Hex);
      const raised = raisedFees(before, await fees.current(), chain.replacement.bumpPercent);
      const raw = await signCall(wallet, tx.nonce, before.gas, tx.call.to as Address, tx.call.data as Hex, raised);
      return { ...tx, hash: keccak256(raw), raw };
    },

    async head() {
      return Number(await rpc("reading the block number", () => client.getBlockNumber({ cacheTime: 0 })));
    },

    isFinal: (block, head) => isFinal(block, head, chain.finalityConfirmations),
  };
}
