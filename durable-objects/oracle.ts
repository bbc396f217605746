import { DurableObject } from "cloudflare:workers";
import type { RelayConfig } from "../src/config";
import { loadConfig } from "../src/config";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import { log } from "../src/log";
import { Schedule } from "../src/objects";
import type { OracleStatus } from "../src/ops";
import type { NativePrices } from "../src/oracle";
import {
  type Activity,
  afterRead,
  afterRound,
  afterSubscribe,
  buildSnapshot,
  type HealthBySource,
  isActive,
  isDue,
  isFresh,
  type ListedBand,
  listedBands,
  nativePricesFor,
  nextRunAt,
  noActivity,
  oracleCorridor,
  oracleCorridors,
  pairKey,
  planRound,
  pollSources,
  prune,
  RECOMPUTE_INTERVAL_MS,
  rateSources,
  type Snapshot,
  type SourceRate,
  sourceRates,
  storedSnapshot,
  subscribers,
} from "../src/oracle";
import type { Band } from "../src/schemas";

export interface Rates {
  /** Corridors' bands, then the native prices' bands no corridor has (src/oracle/rate-bands.ts). */
  bands: ListedBand[];
  sources: SourceRate[];
  unavailable: string[];
}

/** Storage keys: the last round, who is using the oracle, and which sources are failing (src/oracle/backoff.ts). */
export const SNAPSHOT_KEY = "snapshot";
export const ACTIVITY_KEY = "activity";
const HEALTH_KEY = "health";

/**
 * The singleton oracle (`ORACLE`, name "oracle"): polls the configured rate sources every 10 s while
 * someone uses it and pushes each corridor's advisory band to the corridors that subscribed. The last
 * round and who is using it live in storage, so eviction loses nothing; the maths is in src/oracle/.
 */
export class OracleDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
  }

  /** The round being polled, shared by every caller that needs it, so a burst of reads polls once. */
  private inFlight: Promise<{ snapshot: Snapshot; pushed: Promise<unknown> }> | null = null;
  /** One job, `poll`, in the schedule table every object keeps (src/objects/schedule.ts). */
  private readonly schedule = new Schedule(
    this.ctx.storage,
    "oracle_schedule",
    { poll: { run: () => this.round() } },
    (_, e) => log.error("oracle_round_failed", { error: String(e) }),
  );

  /**
   * Every corridor's band and the native prices' bands, every source with its figure's age now (a failing
   * one with its last good figure) and which are failing (`GET /v1/rates`).
   */
  async rates(): Promise<Rates> {
    const config = this.config();
    this.noteRead();
    const snapshot = await this.current();
    await this.ensureAlarm();
    return {
      bands: listedBands(config, snapshot.bands),
      sources: sourceRates(snapshot.sources, Date.now()),
      unavailable: snapshot.unavailable,
    };
  }

  /** The band of one corridor now, for a quote; null when the corridor has none or no source is usable. */
  async band(corridorKey: string): Promise<Band | null> {
    const corridor = oracleCorridor(this.config(), corridorKey);
    if (!corridor) return null;
    this.noteRead();
    const snapshot = await this.current();
    await this.ensureAlarm();
    return snapshot.bands[pairKey(corridor.pair)] ?? null;
  }

  /**
   * What the chain's native token costs in each of its tokens now, for the gas fee (docs/oracle.md,
   * "Native prices"); null when `oracle.natives` names no native for the chain. A read, like `band()`.
   */
  async nativePrices(chainId: number): Promise<NativePrices | null> {
    const config = this.config();
    if (!config.oracle.natives.some((n) => n.chainId === chainId)) return null;
    this.noteRead();
    const snapshot = await this.current();
    await this.ensureAlarm();
    return nativePricesFor(config, chainId, snapshot);
  }

  /**
   * A corridor with resolver sockets asks for each new band (`CorridorDO.publishBand`) for the next two
   * minutes; it renews by calling again. Returns the band now.
   */
  async subscribe(corridorKey: string): Promise<Band | null> {
    const corridor = oracleCorridor(this.config(), corridorKey);
    if (!corridor) return null;
    this.saveActivity(afterSubscribe(this.activity(), corridorKey, Date.now()));
    const snapshot = await this.current();
    await this.ensureAlarm();
    return snapshot.bands[pairKey(corridor.pair)] ?? null;
  }

  /**
   * What the health check reads (docs/operations.md, "Health"): whether the oracle is polling, each mapped
   * corridor's band time from the last round, and the failing sources. Polls nothing.
   */
  async health(): Promise<OracleStatus> {
    const snapshot = this.snapshot();
    const bands = oracleCorridors(this.config()).map((c) => ({
      corridor: c.key,
      at: snapshot?.bands[pairKey(c.pair)]?.at ?? null,
    }));
    return { active: isActive(this.activity(), Date.now()), bands, unavailable: snapshot?.unavailable ?? [] };
  }

  override async alarm(): Promise<void> {
    await this.schedule.runDue(() => Date.now());
  }

  /** One round while someone uses the oracle; when nobody does, the loop ends here (null: not scheduled again). */
  private async round(): Promise<number | null> {
    const now = Date.now();
    const before = this.activity();
    const activity = prune(before, now);
    if (activity !== before) this.saveActivity(activity);
    if (!isActive(activity, now)) return null;
    const last = this.snapshot();
    // At-least-once delivery, or a read that already polled: a round that is not due is not repeated.
    if (this.inFlight || isDue(last?.at ?? null, now)) {
      const { pushed } = await this.recompute();
      await pushed;
    }
    return nextRunAt(this.snapshot()?.at ?? null, Date.now());
  }

  private config(): RelayConfig {
    return loadConfig(this.env.RELAY_CONFIG);
  }

  private snapshot(): Snapshot | null {
    return storedSnapshot(this.ctx.storage.kv.get<Snapshot>(SNAPSHOT_KEY));
  }

  private activity(): Activity {
    return this.ctx.storage.kv.get<Activity>(ACTIVITY_KEY) ?? noActivity();
  }

  private saveActivity(next: Activity): void {
    this.ctx.storage.kv.put(ACTIVITY_KEY, next);
  }

  private noteRead(): void {
    const before = this.activity();
    const after = afterRead(before, Date.now());
    if (after !== before) this.saveActivity(after);
  }

  /** The last round if it is under 10 s old, else a new one. */
  private async current(): Promise<Snapshot> {
    const last = this.snapshot();
    if (!this.inFlight && last && isFresh(last.at, Date.now())) return last;
    const { snapshot, pushed } = await this.recompute();
    this.ctx.waitUntil(pushed);
    return snapshot;
  }

  /** Restarts the loop after it stopped; a running loop already has its next round scheduled. */
  private async ensureAlarm(): Promise<void> {
    this.schedule.ensure({
      job: "poll",
      everyMs: RECOMPUTE_INTERVAL_MS,
      nextAt: nextRunAt(this.snapshot()?.at ?? null, Date.now()),
    });
    await this.schedule.arm();
  }

  private recompute(): Promise<{ snapshot: Snapshot; pushed: Promise<unknown> }> {
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async poll(): Promise<{ snapshot: Snapshot; pushed: Promise<unknown> }> {
    const { oracle } = this.config();
    const sources = rateSources(oracle.sources, oracle.maxAgeSeconds);
    const health = this.ctx.storage.kv.get<HealthBySource>(HEALTH_KEY) ?? {};
    const { ask, resting } = planRound(sources, health);
    const asked = await pollSources(ask, oracle.timeoutMs);
    this.ctx.storage.kv.put(HEALTH_KEY, afterRound(health, asked, resting));
    // In the sources' order, which the snapshot pairs them by (names are unique: the schema says so).
    const byName = new Map([...asked, ...resting].map((o) => [o.name, o]));
    const outcomes = sources.map(
      (s) => byName.get(s.name) ?? { name: s.name, ok: false as const, reason: "not polled" },
    );
    const previous = this.snapshot();
    const snapshot = buildSnapshot(sources, outcomes, oracle.outlierBps, Date.now(), previous);
    logChanges(previous, snapshot, [...new Set(sources.map((s) => pairKey(s.pair)))]);
    this.ctx.storage.kv.put(SNAPSHOT_KEY, snapshot);
    return { snapshot, pushed: this.push(snapshot) };
  }

  /** Sends each subscribed corridor its band; a corridor that fails is logged and the others still get theirs. */
  private push(snapshot: Snapshot): Promise<unknown> {
    const config = this.config();
    const keys = subscribers(this.activity(), snapshot.at);
    const sends = keys.flatMap((key) => {
      const corridor = oracleCorridor(config, key);
      const band = corridor ? snapshot.bands[pairKey(corridor.pair)] : undefined;
      if (!band) return [];
      const stub = this.env.CORRIDOR.get(this.env.CORRIDOR.idFromName(key));
      return [stub.publishBand(band).catch((e: unknown) => Promise.reject({ corridor: key, error: String(e) }))];
    });
    return Promise.allSettled(sends).then((results) => {
      const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
      if (failed.length > 0) log.error("push_failed", { component: "oracle", failed });
    });
  }
}

/**
 * One log line when the set of failing sources or of pairs without a band changes, rather than one
 * every 10 s. A pair without a band means every source for it is in `unavailable`; the reasons say why.
 */
function logChanges(previous: Snapshot | null, next: Snapshot, pairs: string[]): void {
  const withoutBand = pairs.filter((p) => !next.bands[p]);
  const summary = (s: Snapshot) => JSON.stringify([s.unavailable, pairs.filter((p) => !s.bands[p])]);
  if (previous && summary(previous) === summary(next)) return;
  const fields = { component: "oracle", unavailable: next.reasons, withoutBand };
  if (withoutBand.length > 0) log.error("sources_changed", fields);
  else log.warn("sources_changed", fields);
}
