import { DurableObject } from "cloudflare:workers";
import type { ChainSettler } from "../src/chains";
import { settlerFor } from "../src/chains";
import type { ChainConfig } from "../src/config";
import { loadConfig, recordsDatabases, recordsDb } from "../src/config";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import {
  type ChainKeeperJob,
  type ChainKeeperRpc,
  type ChainKeeperStatus,
  INDEX_EVERY_MS,
  Keeper,
  type RoutedSubmission,
  SqlTxStore,
  type SubmitOutcome,
} from "../src/keeper";
import { answerLeft, log, withRequestId } from "../src/log";
import { corridorStub, periodic, Schedule } from "../src/objects";
import { writeThrough } from "../src/quotes";
import { announceQuotes, QuoteAnnouncements } from "../src/streams";

/**
 * The keeper of one chain (`CHAIN_KEEPER`, named by its chain id; docs/architecture.md, "The keeper"):
 * the chain's pool of wallets (their keys from the secret the chain's settlement names), one nonce
 * sequence per EVM wallet, and every transaction between signing and finality in its storage. It takes
 * submissions only from the leader, which has decided them (`submit`), and runs its indexer from its
 * alarm; the logic is in src/keeper/. Eviction loses nothing: on wake it arms the indexer at once, and the
 * indexer's pass recovers what was in flight.
 */
export class ChainKeeperDO extends DurableObject<Env> implements ChainKeeperRpc {
  private readonly keeper: Keeper;
  private readonly store: SqlTxStore;
  private readonly schedule: Schedule<ChainKeeperJob>;
  /** The wallets (one settler per key) of the chain; a changed configuration or secret gets new ones. */
  private readonly wallets = new WeakMap<
    ChainConfig,
    { secret: string | undefined; settlers: readonly ChainSettler[] }
  >();

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
    this.store = new SqlTxStore(ctx.storage);
    // The steps of one moment (the submissions of one D1 batch of records) reach each corridor in one call.
    const announcements = new QuoteAnnouncements((moves) =>
      ctx.waitUntil(announceQuotes(this.env, loadConfig(this.env.RELAY_CONFIG), moves)),
    );
    this.keeper = new Keeper({
      config: () => loadConfig(this.env.RELAY_CONFIG),
      db: this.env.DB,
      records: (id) => recordsDb(this.env, loadConfig(this.env.RELAY_CONFIG), id),
      allRecords: () => recordsDatabases(this.env, loadConfig(this.env.RELAY_CONFIG)).all,
      store: this.store,
      settlers: (chain) => this.settlers(chain),
      writeThrough: (quoteId) => writeThrough(this.env, loadConfig(this.env.RELAY_CONFIG), quoteId),
      armIndexer: () => this.follow(Date.now() + INDEX_EVERY_MS),
      afterAnswer: async (write) => ctx.waitUntil(answerLeft().then(write)),
      quoteMoved: (quoteId, fill) => announcements.add({ quoteId, fill: fill ?? undefined }),
      demoted: (corridorKey, resolver, demotion) => {
        if (!corridorKey) return;
        ctx.waitUntil(
          corridorStub(this.env, corridorKey)
            .notifyDemotion(resolver, demotion)
            .catch((e: unknown) => log.error("notify_failed", { component: "keeper", error: String(e) })),
        );
      },
      now: () => Date.now(),
    });
    const jobs = { indexer: periodic({ run: () => this.keeper.index(), again: () => this.store.count() > 0 }) };
    this.schedule = new Schedule(ctx.storage, "keeper_schedule", jobs, (job, e) =>
      log.error("job_failed", { component: "keeper", job, error: String(e) }),
    );
    ctx.blockConcurrencyWhile(async () => {
      if (this.store.count() > 0) await this.follow(Date.now());
      else await this.schedule.arm();
    });
  }

  /** A submission the leader decided, for a quote on this chain: checked, simulated, broadcast (docs/settlement.md). */
  async submit(request: RoutedSubmission): Promise<SubmitOutcome> {
    // The outcome's fields go on the Worker's request line; the chain calls' lines here carry its id.
    return withRequestId(request.requestId, () => this.keeper.submit(request));
  }

  /** What a submission answered about quote or execution `id`, written to D1 now; whether it was still to come. */
  writeThrough(id: string): Promise<boolean> {
    return this.keeper.writeThrough(id);
  }

  /** The transactions it follows and its wallets' addresses on chain `chainId` (its own). */
  async status(chainId: number): Promise<ChainKeeperStatus> {
    const chain = loadConfig(this.env.RELAY_CONFIG).chains.find((c) => c.chainId === chainId);
    const settlers = chain ? this.settlers(chain) : "no_key";
    return {
      followed: this.store.count(),
      addresses: settlers === "no_key" ? [] : settlers.map((s) => s.keeper),
    };
  }

  /** Runs the due jobs of the schedule table, then arms the alarm for the earliest remaining. */
  override async alarm(): Promise<void> {
    await this.schedule.runDue(() => Date.now());
  }

  /** The keeper's wallets on a chain: one per key of the chain's secret (docs/settlement.md, "The wallet pool"). */
  private settlers(chain: ChainConfig): readonly ChainSettler[] | "no_key" {
    const settlement = settlerFor(chain);
    const secret = this.env[settlement.secretName];
    const cached = this.wallets.get(chain);
    if (cached && cached.secret === secret) return cached.settlers;
    const settlers = settlement.withKeys(secret, this.store.nonces(chain.chainId));
    if (!settlers) return "no_key";
    this.wallets.set(chain, { secret, settlers });
    return settlers;
  }

  /** Makes sure the indexer runs by `at`. */
  private async follow(at: number): Promise<void> {
    await this.schedule.soon({ job: "indexer", everyMs: INDEX_EVERY_MS, nextAt: at });
  }
}
