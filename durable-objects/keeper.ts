import { DurableObject } from "cloudflare:workers";
import type { ChainSettler } from "../src/chains";
import { settlerFor } from "../src/chains";
import type { ChainConfig } from "../src/config";
import { loadConfig } from "../src/config";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import type { KeeperRpc, SubmitOutcome, SubmitRequest } from "../src/keeper";
import {
  EXPIRE_EVERY_MS,
  INDEX_EVERY_MS,
  Keeper,
  type KeeperJob,
  LIMIT_POLL_MS,
  limitJobPort,
  limitPass,
  PRUNE_EVERY_MS,
  RETENTION_BACKLOG_MS,
  RETENTION_EVERY_MS,
  SqlTxStore,
} from "../src/keeper";
import { answerLeft, log, withRequestId } from "../src/log";
import { PauseSwitch } from "../src/ops";
import { writeThrough } from "../src/quotes";
import { behindTheAlarm, periodic, Schedule } from "../src/schedule";
import type { KeeperRecord, Pause } from "../src/schemas";
import { announceLimitOrders, announceQuotes, QuoteAnnouncements } from "../src/streams";
import { corridorStub, oracleStub } from "../src/stubs";

const RETENTION = { job: "retention", everyMs: RETENTION_EVERY_MS } as const;

/**
 * The keeper leader (`KEEPER`, singleton "leader"): a pool of wallets per chain (their keys from the
 * secret the chain's settlement names), one nonce sequence per EVM wallet. Takes
 * submissions (`submit`) and runs its periodic jobs from one alarm over a schedule table; the logic is in
 * src/keeper/. Its storage holds every transaction between signing and finality, so eviction loses
 * nothing: on wake it arms the indexer at once, and the indexer's pass recovers what was in flight.
 */
export class KeeperDO extends DurableObject<Env> implements KeeperRpc {
  readonly keeper: Keeper;
  private readonly store: SqlTxStore;
  private readonly schedule: Schedule<KeeperJob>;
  private readonly pauses: PauseSwitch;
  /** The wallets (one settler per key) of each configured chain; a changed configuration or secret gets new ones. */
  private readonly wallets = new WeakMap<
    ChainConfig,
    { secret: string | undefined; settlers: readonly ChainSettler[] }
  >();

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
    const env = this.env;
    this.store = new SqlTxStore(ctx.storage);
    this.pauses = new PauseSwitch(ctx.storage.kv);
    // The steps of one moment (the submissions of one D1 batch of records) reach each corridor in one call.
    const announcements = new QuoteAnnouncements((moves) =>
      ctx.waitUntil(announceQuotes(this.env, loadConfig(this.env.RELAY_CONFIG), moves)),
    );
    this.keeper = new Keeper({
      config: () => loadConfig(this.env.RELAY_CONFIG),
      db: env.DB,
      store: this.store,
      settlers: (chain) => this.settlers(chain),
      writeThrough: (quoteId) => writeThrough(this.env, loadConfig(this.env.RELAY_CONFIG), quoteId),
      armIndexer: () => this.follow(Date.now() + INDEX_EVERY_MS),
      afterAnswer: async (write) => ctx.waitUntil(answerLeft().then(write)),
      quoteMoved: (quoteId, fill) => announcements.add({ quoteId, fill: fill ?? undefined }),
      paused: () => this.paused() !== null,
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
    const limits = limitJobPort({
      db: env.DB,
      config: () => loadConfig(this.env.RELAY_CONFIG),
      band: (corridorKey) => oracleStub(this.env).band(corridorKey),
      auction: (corridorKey, input) => corridorStub(this.env, corridorKey).requestQuote(input),
      submit: (request) => this.keeper.submit(request),
      paused: () => this.paused() !== null,
      moved: (orders) => ctx.waitUntil(announceLimitOrders(this.env, orders)),
    });
    const limitRun = behindTheAlarm(() => limitPass(limits), {
      waitUntil: (p) => ctx.waitUntil(p),
      onError: (e) => log.error("job_failed", { component: "keeper", job: "limits", error: String(e) }),
    });
    // Deletes run behind the alarm too; a run that leaves a backlog brings its next one forward.
    const retentionRun = behindTheAlarm(
      async () => {
        if (!(await this.keeper.retain()).more) return;
        await this.schedule.soon({ ...RETENTION, nextAt: Date.now() + RETENTION_BACKLOG_MS });
      },
      {
        waitUntil: (p) => ctx.waitUntil(p),
        onError: (e) => log.error("job_failed", { component: "keeper", job: "retention", error: String(e) }),
      },
    );
    const jobs = {
      indexer: periodic({ run: () => this.keeper.index(), again: () => this.store.count() > 0 }),
      prune: periodic({ run: () => this.keeper.pruneKeys(), again: () => true }),
      expire: periodic({ run: () => this.keeper.expireQuotes(), again: () => true }),
      // A pass waits for its auctions (up to an rfq window): behind the alarm, so the indexer's 1 s job does not.
      limits: periodic({ run: limitRun, again: () => this.limitOrdersOn() }),
      retention: periodic({ run: retentionRun, again: () => true }),
    };
    this.schedule = new Schedule(ctx.storage, "keeper_schedule", jobs, (job, e) =>
      log.error("job_failed", { component: "keeper", job, error: String(e) }),
    );
    ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      this.schedule.ensure({ job: "prune", everyMs: PRUNE_EVERY_MS, nextAt: now + PRUNE_EVERY_MS });
      this.schedule.ensure({ job: "expire", everyMs: EXPIRE_EVERY_MS, nextAt: now + EXPIRE_EVERY_MS });
      this.schedule.ensure({ ...RETENTION, nextAt: now + RETENTION_EVERY_MS });
      if (this.limitOrdersOn())
        this.schedule.ensure({ job: "limits", everyMs: LIMIT_POLL_MS, nextAt: now + LIMIT_POLL_MS });
      if (this.store.count() > 0) await this.follow(now);
      else await this.schedule.arm();
    });
  }

  /** Whether limit orders are on (`limitOrders` in the configuration): the limit job runs only then. */
  private limitOrdersOn(): boolean {
    return loadConfig(this.env.RELAY_CONFIG).limitOrders !== null;
  }

  /** A limit order was placed: the 5 s job is scheduled (it is, from the first wake on) and the alarm armed. */
  async watchLimitOrders(): Promise<void> {
    if (!this.limitOrdersOn()) return;
    this.schedule.ensure({ job: "limits", everyMs: LIMIT_POLL_MS, nextAt: Date.now() + LIMIT_POLL_MS });
    await this.schedule.arm();
  }

  /**
   * A taker's signed quote, validated by the Worker: checked, simulated, broadcast (docs/settlement.md);
   * refused while an operator has paused the keeper (docs/operations.md, "Pausing").
   */
  async submit(request: SubmitRequest): Promise<SubmitOutcome> {
    // The outcome's fields go on the Worker's request line; the chain calls' lines here carry its id.
    return withRequestId(request.requestId, () => this.keeper.submit(request));
  }

  /** What a submission answered about quote or execution `id`, written to D1 now; whether it was still to come. */
  writeThrough(id: string): Promise<boolean> {
    return this.keeper.writeThrough(id);
  }

  /**
   * An operator pauses the keeper (docs/operations.md, "Pausing"): submissions answer 503 `not_leader` and
   * the limit job starts no round, while the indexer still follows what was sent. Kept in storage.
   */
  async pause(reason?: string): Promise<KeeperRecord> {
    this.pauses.pause(reason, Date.now());
    log.warn("keeper_paused", { component: "keeper", reason: reason ?? null });
    return this.status();
  }

  async resume(): Promise<KeeperRecord> {
    this.pauses.resume();
    log.warn("keeper_resumed", { component: "keeper" });
    return this.status();
  }

  /** Its pause, the transactions it follows and its wallets per chain (their addresses too), for the admin API and the health check. */
  async status(): Promise<KeeperRecord> {
    const wallets = loadConfig(this.env.RELAY_CONFIG).chains.map((chain) => {
      const settlers = this.settlers(chain);
      const addresses = settlers === "no_key" ? [] : settlers.map((s) => s.keeper);
      return { chainId: chain.chainId, wallets: addresses.length, addresses };
    });
    return { paused: this.paused(), followed: this.store.count(), wallets };
  }

  private paused(): Pause | null {
    return this.pauses.current();
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
