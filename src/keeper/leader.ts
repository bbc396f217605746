import { chainsOfId } from "../chains";
import type { RelayConfig } from "../config";
import { readQuoteRow } from "../db";
import type { KeeperRecord, Pause } from "../schemas";
import type { KeyBook } from "./key-book";
import { KeyedLocks } from "./locks";
import { bindsKey, quoteNotFound } from "./outcomes";
import type { ChainKeeperRpc, KeeperRpc, SubmitOutcome, SubmitRequest } from "./rpc";

/** What the leader needs from its Durable Object; tests hand it fakes. */
export interface LeaderPort {
  config(): RelayConfig;
  db: D1Database;
  /** The database of a quote's records (docs/capacity.md, "Records by corridor"). */
  records(id: string): D1Database;
  /**
   * The keeper of chain `chainId` (its object). Its `submit` answers a refusal, never throws, when the
   * object cannot be reached or was reset while it held the submission.
   */
  chainKeeper(chainId: number): ChainKeeperRpc;
  /** The operator's pause (docs/operations.md, "Pausing"), or null. */
  paused(): Pause | null;
  /** The Idempotency-Keys it has taken and their quotes, in its own storage (src/keeper/key-book.ts). */
  keys: KeyBook;
  now(): number;
}

/**
 * The keeper leader (docs/architecture.md, "The keeper"): the one place that decides which submission
 * goes on, and the one the Worker and the limit job hand submissions to. Submissions for one quote or one
 * Idempotency-Key run one at a time across every chain, a key is its first quote's from the moment that
 * submission is taken (kept in the leader's storage, `KeyBook`), and none is taken while an operator has
 * paused the keeper; each one is handed, with that decision, to the keeper of its quote's chain, which checks,
 * simulates, signs, broadcasts and follows it. The chains' keepers never wait on one another.
 */
export class Leader implements KeeperRpc {
  private readonly locks = new KeyedLocks();

  constructor(private readonly port: LeaderPort) {}

  submit(req: SubmitRequest): Promise<SubmitOutcome> {
    const keys = [`quote:${req.quoteId}`, ...(req.idempotencyKey ? [`key:${req.idempotencyKey}`] : [])];
    return this.locks.run(keys, async () => {
      const chainId = await this.chainOfQuote(req.quoteId);
      if (chainId === null) return quoteNotFound(req.quoteId);
      const key = req.idempotencyKey;
      const taken = key ? this.takeKey(key, req.quoteId) : null;
      const outcome = await this.port.chainKeeper(chainId).submit({
        ...req,
        paused: this.port.paused() !== null,
        ...(taken?.others.length ? { keyTakenWith: taken.others } : {}),
      });
      // A submission that recorded nothing gives its key back, so the same key runs it again.
      if (key && taken?.added && !bindsKey(outcome)) this.port.keys.release(key, req.quoteId);
      return outcome;
    });
  }

  /**
   * The key is the quote's from the moment its submission is taken, in storage before anything is
   * answered (docs/settlement.md, "Idempotency-Key"), for as long as the quote may be open: at most
   * `quoteTtlSeconds` after it was made, and D1 has the key's execution long before then.
   */
  private takeKey(key: string, quoteId: string) {
    const now = this.port.now();
    return this.port.keys.take(key, quoteId, now, now + this.port.config().quoteTtlSeconds * 1000);
  }

  /**
   * The chain of quote `quoteId`: the one its id's corridor tag names, so the leader reads nothing; D1's
   * when the tag names no corridor of the configuration or corridors of several chains. Null: no quote.
   */
  private async chainOfQuote(quoteId: string): Promise<number | null> {
    const [only, ...more] = chainsOfId(this.port.config(), quoteId);
    if (only !== undefined && more.length === 0) return only;
    return (await readQuoteRow(this.port.records(quoteId), quoteId))?.chainId ?? null;
  }

  /** Asks the keeper of each chain `id`'s tag names (one, but for a collision); one that cannot answer has nothing. */
  async writeThrough(id: string): Promise<boolean> {
    const chains = chainsOfId(this.port.config(), id);
    const written = await Promise.all(
      chains.map((chainId) =>
        this.port
          .chainKeeper(chainId)
          .writeThrough(id)
          .catch(() => false),
      ),
    );
    return written.includes(true);
  }

  /** Its pause, and what each configured chain's keeper follows and signs with. */
  async status(): Promise<KeeperRecord> {
    const chains = await Promise.all(
      this.port.config().chains.map(async ({ chainId }) => ({
        chainId,
        ...(await this.port.chainKeeper(chainId).status(chainId)),
      })),
    );
    return {
      paused: this.port.paused(),
      followed: chains.reduce((n, c) => n + c.followed, 0),
      wallets: chains.map(({ chainId, addresses }) => ({ chainId, wallets: addresses.length, addresses })),
    };
  }
}
