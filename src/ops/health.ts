import { BAND_FRESH_MS } from "../auction";
import type { ChainHead, TokenFeeBps } from "../chains";
import type { Health, KeeperRecord } from "../schemas";
import { type CorridorStatus, corridorState } from "./corridor-state";
import type { Probed } from "./deadline";
import { describeFeeDifference, feeDifferences } from "./fee-truth";
import { fillsLeft, type KeeperBooks } from "./keeper-books";

/** Each part of `GET /v1/health` answers within this, or counts as down (docs/operations.md, "Health"). */
export const HEALTH_PART_TIMEOUT_MS = 2_500;
/** A head older than this means the RPC serves a node that stopped following its chain. */
export const HEAD_STALE_SECONDS = 120;
/** A write queued longer than this means its corridor cannot reach D1 (writes normally leave in milliseconds). */
export const OUTBOX_STALE_SECONDS = 60;

/** What the oracle says of itself, without polling (`OracleDO.health`). */
export interface OracleStatus {
  active: boolean;
  /** Each mapped corridor's band time (unix ms), null without a band. */
  bands: { corridor: string; at: number | null }[];
  unavailable: string[];
}

/** What the health check asked of one chain, and what the configuration expects of it. */
export interface ChainProbes {
  chainId: number;
  name: string;
  head: Probed<ChainHead>;
  /** The keeper's books over the last 24 h (`BOOKS_WINDOW_MS`); `capped` when the window held more fills than were read. */
  books: Probed<KeeperBooks & { capped: boolean }>;
  /** What the keeper's wallets there hold, native base units; null when their addresses are not known. */
  balance: Probed<bigint | null>;
  /** The bps the chain's contracts charge per token; null on a chain whose contracts keep none. */
  feeBps: Probed<TokenFeeBps[] | null>;
  /** The configured `fee.bps`. */
  configuredFeeBps: number;
  /** `keeperFloorFills`. */
  floorFills: number;
}

/** Everything the health check asked, each part bounded in time. */
export interface HealthProbes {
  keeper: Probed<KeeperRecord>;
  chains: ChainProbes[];
  oracle: Probed<OracleStatus>;
  corridors: { key: string; status: Probed<CorridorStatus> }[];
  openLimitOrders: Probed<number>;
}

const ageSeconds = (at: number | null, now: number) =>
  at === null ? null : Math.max(0, Math.floor((now - at) / 1000));
const errorOf = <T>(p: Probed<T>) => (p.ok ? null : p.error);

/**
 * The health record from the probes (docs/operations.md, "Health"): each part `ok`, `degraded` or (the
 * keeper, a corridor) `paused`; the whole is `degraded` when any part is, and names them. A pause is an
 * operator's decision, listed in `paused`, and does not make the whole degraded.
 */
export function assessHealth(probes: HealthProbes, now: number): Health {
  const degraded: string[] = [];
  const paused: string[] = [];
  const mark = (part: string, isDegraded: boolean) => {
    if (isDegraded) degraded.push(part);
    return isDegraded ? ("degraded" as const) : ("ok" as const);
  };

  const k = probes.keeper;
  const wallets = k.ok ? k.value.wallets : [];
  const keeperPaused = k.ok ? k.value.paused : null;
  const keyless = wallets.filter((w) => w.wallets === 0).map((w) => w.chainId);
  const keeperDown = !k.ok || keyless.length > 0;
  if (keeperPaused) paused.push("keeper");
  const keeper = {
    status: keeperDown ? mark("keeper", true) : keeperPaused ? ("paused" as const) : ("ok" as const),
    reachable: k.ok,
    paused: keeperPaused,
    followed: k.ok ? k.value.followed : null,
    wallets,
    ms: k.ms,
    error: errorOf(k) ?? (keyless.length > 0 ? `no keeper key for chain ${keyless.join(", ")}` : null),
  };

  const chains = probes.chains.map((probe) => {
    const part = assessChain(probe, now);
    if (part.status === "degraded") degraded.push(`chain:${probe.chainId}`);
    return part;
  });

  const o = probes.oracle;
  const bands = o.ok ? o.value.bands.map((b) => ({ corridor: b.corridor, ageSeconds: ageSeconds(b.at, now) })) : [];
  // An idle oracle polls nothing, so old bands are expected; a polling one must keep them fresh.
  const staleBand = o.ok && o.value.active && o.value.bands.some((b) => b.at === null || now - b.at > BAND_FRESH_MS);
  const oracle = {
    status: mark("oracle", !o.ok || staleBand),
    active: o.ok && o.value.active,
    bands,
    unavailable: o.ok ? o.value.unavailable : [],
    ms: o.ms,
    error: errorOf(o) ?? (staleBand ? `a band is older than ${BAND_FRESH_MS / 1000} s` : null),
  };

  let queued = 0;
  let oldestAt: number | null = null;
  const corridors = probes.corridors.map(({ key, status }) => {
    const value = status.ok ? status.value : null;
    const { state, degraded: why } = corridorState(value);
    if (state === "paused") paused.push(`corridor:${key}`);
    if (state === "degraded") degraded.push(`corridor:${key}`);
    if (value) {
      queued += value.outbox.queued;
      if (value.outbox.oldestAt !== null) oldestAt = Math.min(oldestAt ?? value.outbox.oldestAt, value.outbox.oldestAt);
    }
    const outbox = value
      ? { queued: value.outbox.queued, oldestAgeSeconds: ageSeconds(value.outbox.oldestAt, now) }
      : null;
    return { key, state, degraded: why, nodes: value?.nodes ?? null, outbox, ms: status.ms };
  });
  const oldestAgeSeconds = ageSeconds(oldestAt, now);
  const outbox = {
    status: mark("outbox", oldestAgeSeconds !== null && oldestAgeSeconds > OUTBOX_STALE_SECONDS),
    queued,
    oldestAgeSeconds,
  };

  const l = probes.openLimitOrders;
  const limitOrders = {
    status: mark("limitOrders", !l.ok),
    open: l.ok ? l.value : null,
    ms: l.ms,
    error: errorOf(l),
  };

  return {
    status: degraded.length > 0 ? "degraded" : "ok",
    degraded,
    paused,
    checkedAt: new Date(now).toISOString(),
    keeper,
    chains,
    oracle,
    corridors,
    outbox,
    limitOrders,
  };
}

/**
 * One chain's part (docs/operations.md, "Health"): degraded when its RPC does not answer or follows a
 * stale head, when the keeper's balance or the FeeController cannot be read, when D1 does not give the
 * books, when the balance pays for fewer fills than `keeperFloorFills`, or when the FeeController
 * charges other bps than `fee.bps` on any of the chain's tokens; `error` names each.
 */
export function assessChain(probe: ChainProbes, now: number): Health["chains"][number] {
  const { head, books, balance, feeBps } = probe;
  const headAgeSeconds = head.ok ? ageSeconds(head.value.time, now) : null;
  const stale = headAgeSeconds !== null && headAgeSeconds > HEAD_STALE_SECONDS;
  const held = balance.ok ? balance.value : null;
  const window = books.ok ? books.value : null;
  const left = held !== null && window ? fillsLeft(held, window.medianSpent) : null;
  const onChain = feeBps.ok ? feeBps.value : null;
  const problems: string[] = [];
  // A dead RPC fails every read of it: its own error says it once.
  if (!head.ok) problems.push(head.error);
  if (stale) problems.push(`head is ${headAgeSeconds} s old`);
  if (head.ok && !balance.ok) problems.push(`keeper balance: ${balance.error}`);
  if (head.ok && !feeBps.ok) problems.push(`FeeController: ${feeBps.error}`);
  if (!books.ok) problems.push(`keeper books: ${books.error}`);
  if (left !== null && left < probe.floorFills) {
    problems.push(`the keeper's balance pays for ${left} more fills, under keeperFloorFills ${probe.floorFills}`);
  }
  problems.push(...feeDifferences(probe.configuredFeeBps, onChain ?? []).map(describeFeeDifference));
  return {
    chainId: probe.chainId,
    name: probe.name,
    status: problems.length > 0 ? "degraded" : "ok",
    reachable: head.ok,
    head: head.ok ? head.value.number : null,
    headAgeSeconds,
    books: window
      ? {
          fills: window.fills,
          spent: window.spent.toString(),
          charged: window.charged.toString(),
          margin: window.margin.toString(),
          unpriced: window.unpriced,
          capped: window.capped,
        }
      : null,
    keeper: { balance: held?.toString() ?? null, fillsLeft: left, floorFills: probe.floorFills },
    protocolFee: {
      bps: probe.configuredFeeBps,
      onChain: onChain?.map((t) => ({ token: t.symbol, bps: t.bps })) ?? null,
    },
    ms: Math.max(head.ms, books.ms, balance.ms, feeBps.ms),
    error: problems.length > 0 ? problems.join("; ") : null,
  };
}
