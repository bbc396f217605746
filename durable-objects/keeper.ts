import { DurableObject } from "cloudflare:workers";
import { loadConfig, recordsDatabases, recordsDb } from "../src/config";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import type { Refusal } from "../src/errors";
import {
  type ChainKeeperRpc,
  EXPIRE_EVERY_MS,
  expireQuotes,
  KEEPER_UNREACHABLE,
  type KeeperRpc,
  Leader,
  type LeaderJob,
  LIMIT_POLL_MS,
  limitJobPort,
  limitPass,
  moveCountsToDb,
  PRUNE_EVERY_MS,
  pruneKeys,
  RETENTION_BACKLOG_MS,
  RETENTION_EVERY_MS,
  retain,
  SqlKeyBook,
  type SubmitOutcome,
  type SubmitRequest,
} from "../src/keeper";
import { type ClientAsk, SharedCounts } from "../src/limits";
import { log, withRequestId } from "../src/log";
import {
  behindTheAlarm,
  chainKeeperStub,
  corridorStub,
  oracleStub,
  periodic,
  Schedule,
  unreachableRefusal,
} from "../src/objects";
import { PauseSwitch } from "../src/ops";
import type { KeeperRecord, Pause } from "../src/schemas";
import { announceLimitOrders } from "../src/streams";

const RETENTION = { job: "retention", everyMs: RETENTION_EVERY_MS } as const;

/**
 * The keeper leader (`KEEPER`, singleton "leader"; docs/architecture.md, "The keeper"): takes every
 * submission, from the Worker and from the limit job, decides it (one at a time per quote and per
 * Idempotency-Key; none while an operator has paused it) and hands it to the keeper object of its
 * quote's chain (`CHAIN_KEEPER`), which signs, broadcasts and follows it. Its alarm runs the jobs that
 * keep D1 (expiry, pruning, retention) and the limit orders' rounds; the logic is in src/keeper/.
 */
export class KeeperDO extends DurableObject<Env> implements KeeperRpc {
  private readonly leader: Leader;
  private readonly schedule: Schedule<LeaderJob>;
  private readonly pauses: PauseSwitch;
  private readonly clients: SharedCounts;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
    const env = this.env;
    this.pauses = new PauseSwitch(ctx.storage.kv);
    this.clients = new SharedCounts(() => loadConfig(this.env.RELAY_CONFIG).limits, Date.now);
    this.leader = new Leader({
      config: () => loadConfig(this.env.RELAY_CONFIG),
      db: env.DB,
      records: (id) => recordsDb(this.env, loadConfig(this.env.RELAY_CONFIG), id),
      chainKeeper: (chainId) => this.chainKeeper(chainId),
      paused: () => this.paused(),
      keys: new SqlKeyBook(ctx.storage.sql),
      now: () => Date.now(),
    });
    const limits = limitJobPort({
      db: env.DB,
      config: () => loadConfig(this.env.RELAY_CONFIG),
      band: (corridorKey) => oracleStub(this.env).band(corridorKey),
      auction: (corridorKey, input) => corridorStub(this.env, corridorKey).requestQuote(input),
      submit: (request) => this.leader.submit(request),
      paused: () => this.paused() !== null,
      moved: (orders) => ctx.waitUntil(announceLimitOrders(this.env, orders)),
    });
    const limitRun = behindTheAlarm(() => limitPass(limits), {
      waitUntil: (p) => ctx.waitUntil(p),
      onError: (e) => log.error("job_failed", { component: "keeper", job: "limits", error: String(e) }),
    });
    // Archiving runs behind the alarm too; a run that leaves a backlog brings its next one forward.
    const retentionRun = behindTheAlarm(
      async () => {
        const run = await retain(this.recordsDbs(), this.env.ARCHIVE, loadConfig(this.env.RELAY_CONFIG), Date.now());
        if (!run.more) return;
        await this.schedule.soon({ ...RETENTION, nextAt: Date.now() + RETENTION_BACKLOG_MS });
      },
      {
        waitUntil: (p) => ctx.waitUntil(p),
        onError: (e) => log.error("job_failed", { component: "keeper", job: "retention", error: String(e) }),
      },
    );
    const jobs = {
      prune: periodic({
        run: async () => void (await Promise.all(this.recordsDbs().map((db) => pruneKeys(db, Date.now())))),
        again: () => true,
      }),
      expire: periodic({
        run: async () => {
          await expireQuotes(this.recordsDbs(), Date.now());
          await moveCountsToDb(this.recordsDbs(), this.env.DB, Date.now());
        },
        again: () => true,
      }),
      // A pass waits for its auctions (up to an rfq window): behind the alarm, so the other jobs do not.
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
      await this.schedule.arm();
    });
  }

  /** Every records database (docs/capacity.md, "Records by corridor"): the jobs keep each. */
  private recordsDbs(): readonly D1Database[] {
    return recordsDatabases(this.env, loadConfig(this.env.RELAY_CONFIG)).all;
  }

  /** Whether limit orders are on (`limitOrders` in the configuration): the limit job runs only then. */
  private limitOrdersOn(): boolean {
    return loadConfig(this.env.RELAY_CONFIG).limitOrders !== null;
  }

  /**
   * A client is about to place a limit order: counted against it, its /48 and the relay (docs/security.md,
   * "Counts a bypass defeats"); admitted, the limit job is woken for it. The refusal when it is over.
   */
  async admitLimitOrder(who: ClientAsk): Promise<Refusal | null> {
    const refused = this.clients.placement(who);
    if (!refused) await this.watchLimitOrders();
    return refused;
  }

  /** A limit order was placed: the 5 s job is scheduled (it is, from the first wake on) and the alarm armed. */
  private async watchLimitOrders(): Promise<void> {
    if (!this.limitOrdersOn()) return;
    this.schedule.ensure({ job: "limits", everyMs: LIMIT_POLL_MS, nextAt: Date.now() + LIMIT_POLL_MS });
    await this.schedule.arm();
  }

  /**
   * A taker's signed quote, validated by the Worker: checked, simulated, broadcast (docs/settlement.md);
   * refused while an operator has paused the keeper (docs/operations.md, "Pausing"). Its client's refused
   * submissions and those it holds are counted here, where every isolate's are (docs/security.md).
   */
  async submit(request: SubmitRequest): Promise<SubmitOutcome> {
    return withRequestId(request.requestId, () =>
      this.clients.submission(request.client, () => this.leader.submit(request)),
    );
  }

  /** What a submission answered about quote or execution `id`, written to D1 now; whether it was still to come. */
  writeThrough(id: string): Promise<boolean> {
    return this.leader.writeThrough(id);
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

  /** Its pause, the transactions the chains' keepers follow and their wallets per chain, for the admin API and the health check. */
  status(): Promise<KeeperRecord> {
    return this.leader.status();
  }

  private paused(): Pause | null {
    return this.pauses.current();
  }

  /** Runs the due jobs of the schedule table, then arms the alarm for the earliest remaining. */
  override async alarm(): Promise<void> {
    await this.schedule.runDue(() => Date.now());
  }

  /**
   * The keeper object of chain `chainId`: one that cannot be reached, or was reset while it held a
   * submission, answers the submission as the Worker answers the leader's (`KEEPER_UNREACHABLE`).
   */
  private chainKeeper(chainId: number): ChainKeeperRpc {
    const stub = chainKeeperStub(this.env, chainId);
    return {
      submit: (request) =>
        stub.submit(request).catch((e: unknown) => {
          const refusal = unreachableRefusal(e, KEEPER_UNREACHABLE);
          if (refusal) return refusal;
          throw e;
        }),
      writeThrough: (id) => stub.writeThrough(id),
      status: (id) => stub.status(id),
    };
  }
}
