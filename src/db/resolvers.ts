import { resolverKey } from "../ids";
import type { NodeState } from "../protocol";
import type { AdvertisedCorridor } from "../schemas";
import { parseJson } from "./json";
import { type Totals, totalsByAddress, totalsStatement } from "./resolver-days";

export interface ResolverRow {
  address: string;
  name: string;
  region: string | null;
  signerType: string | null;
  version: string | null;
  registered: boolean;
  registeredAt: string | null;
  demotedUntil: string | null;
  demotionReason: string | null;
  demotions: number;
  state: NodeState | null;
  degraded: string | null;
  solanaAddress: string | null;
  corridors: AdvertisedCorridor[];
  firstSeen: string | null;
  lastSeen: string | null;
}

export interface ResolverDbRow {
  address: string;
  name: string;
  region: string | null;
  signer_type: string | null;
  version: string | null;
  registered: number;
  registered_at: string | null;
  demoted_until: string | null;
  demotion_reason: string | null;
  demotions: number;
  state: NodeState | null;
  degraded: string | null;
  solana_address: string | null;
  corridors: string;
  first_seen: string | null;
  last_seen: string | null;
}

export function toRow(r: ResolverDbRow): ResolverRow {
  return {
    address: r.address,
    name: r.name,
    region: r.region,
    signerType: r.signer_type,
    version: r.version,
    registered: r.registered === 1,
    registeredAt: r.registered_at,
    demotedUntil: r.demoted_until,
    demotionReason: r.demotion_reason,
    demotions: r.demotions,
    state: r.state,
    degraded: r.degraded,
    solanaAddress: r.solana_address,
    corridors: parseJson<AdvertisedCorridor[]>(r.corridors) ?? [],
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
  };
}

export async function readResolver(db: D1Database, address: string): Promise<ResolverRow | null> {
  const r = await db
    .prepare("SELECT * FROM resolvers WHERE address = ?")
    .bind(resolverKey(address))
    .first<ResolverDbRow>();
  return r ? toRow(r) : null;
}

export async function isRegistered(db: D1Database, address: string): Promise<boolean> {
  const r = await db
    .prepare("SELECT 1 AS ok FROM resolvers WHERE address = ? AND registered = 1")
    .bind(resolverKey(address))
    .first<{ ok: number }>();
  return r !== null;
}

export interface SeenNode {
  address: string;
  name: string;
  version: string;
  region: string | null;
  signerType: string | null;
  solanaAddress: string | null;
  corridor: AdvertisedCorridor;
  state: NodeState | null;
  degraded: string | null;
  at: string;
}

/**
 * A node seen on a corridor: refreshes its directory entry, adding the corridor to those it advertised,
 * and with `create` makes the entry if there is none (docs/reliability.md, "The directory"): only once the
 * node is registered or the chain covered what it claims is it written down, so a key that merely
 * connects leaves no row. One statement, so concurrent corridors cannot lose each other's corridor.
 */
export function nodeSeenStatement(db: D1Database, n: SeenNode, create: boolean): D1PreparedStatement {
  const corridor = JSON.stringify(n.corridor);
  return db
    .prepare(
      `INSERT INTO resolvers (address, name, region, signer_type, version, solana_address, corridors, state, degraded,
         first_seen, last_seen, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, json_array(json(?7)), ?8, ?9, ?10, ?10, ?10
       WHERE ?11 OR EXISTS (SELECT 1 FROM resolvers WHERE address = ?1)
       ON CONFLICT (address) DO UPDATE SET
         name = CASE WHEN resolvers.registered = 1 THEN resolvers.name ELSE excluded.name END,
         region = CASE WHEN resolvers.registered = 1 AND resolvers.region IS NOT NULL THEN resolvers.region
                       ELSE excluded.region END,
         signer_type = excluded.signer_type,
         version = excluded.version,
         solana_address = COALESCE(excluded.solana_address, resolvers.solana_address),
         corridors = CASE
           WHEN EXISTS (SELECT 1 FROM json_each(resolvers.corridors) WHERE json(value) = json(?7))
             THEN resolvers.corridors
           ELSE json_insert(resolvers.corridors, '$[#]', json(?7)) END,
         state = excluded.state,
         degraded = excluded.degraded,
         first_seen = COALESCE(resolvers.first_seen, excluded.first_seen),
         last_seen = excluded.last_seen,
         updated_at = excluded.updated_at`,
    )
    .bind(
      resolverKey(n.address),
      n.name,
      n.region,
      n.signerType,
      n.version,
      n.solanaAddress,
      corridor,
      n.state,
      n.degraded,
      n.at,
      create ? 1 : 0,
    );
}

/**
 * The guard of a counter write (`countStatement`) that counts only for a resolver in the directory: a
 * node's uptime, so that a key that merely connects leaves no row of day counters either.
 */
export const inDirectory = (address: string) => ({
  sql: (placeholder: string) => `EXISTS (SELECT 1 FROM resolvers WHERE address = ${placeholder})`,
  param: resolverKey(address),
});

/** Heartbeats refresh `last_seen` and the state, throttled by the caller to one write a minute per node. */
export function touchStatement(
  db: D1Database,
  address: string,
  state: NodeState,
  degraded: string | null,
  at: string,
): D1PreparedStatement {
  return db
    .prepare("UPDATE resolvers SET last_seen = ?2, state = ?3, degraded = ?4, updated_at = ?2 WHERE address = ?1")
    .bind(resolverKey(address), at, state, degraded);
}

export interface RegistrationInput {
  name?: string | undefined;
  region?: string | null | undefined;
  registered?: boolean | undefined;
}

/** Admin: create or update a directory entry. Registering stamps `registered_at` the first time. */
export async function upsertRegistration(
  db: D1Database,
  address: string,
  input: RegistrationInput,
  at: string,
): Promise<void> {
  const registered = input.registered === undefined ? null : input.registered ? 1 : 0;
  await db
    .prepare(
      `INSERT INTO resolvers (address, name, region, registered, registered_at, updated_at)
       VALUES (?1, COALESCE(?2, ''), ?3, COALESCE(?4, 1), CASE WHEN COALESCE(?4, 1) = 1 THEN ?6 END, ?6)
       ON CONFLICT (address) DO UPDATE SET
         name = COALESCE(?2, resolvers.name),
         region = CASE WHEN ?5 THEN ?3 ELSE resolvers.region END,
         registered = COALESCE(?4, resolvers.registered),
         registered_at = CASE
           WHEN COALESCE(?4, resolvers.registered) = 1 THEN COALESCE(resolvers.registered_at, ?6)
           ELSE NULL END,
         updated_at = ?6`,
    )
    .bind(
      resolverKey(address),
      input.name ?? null,
      input.region ?? null,
      registered,
      input.region !== undefined ? 1 : 0,
      at,
    )
    .run();
}

/**
 * A nameless directory entry for a resolver that has none, made at `at` (a no-op for one that has): a
 * strike or an admin's demotion must be kept for a node that is asked before it has an entry
 * (docs/reliability.md, "The directory").
 */
export function namelessEntryStatement(db: D1Database, address: string, at: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO resolvers (address, name, updated_at) VALUES (?1, '', ?2) ON CONFLICT (address) DO NOTHING")
    .bind(resolverKey(address), at);
}

/**
 * Admin: demote until `until`; with `create`, a resolver without a directory entry gets one first.
 * Returns false when the resolver has none (and `create` was not given).
 */
export async function demoteResolver(
  db: D1Database,
  address: string,
  demotion: { until: string; reason: string },
  at: string,
  create = false,
): Promise<boolean> {
  const update = db
    .prepare(
      `UPDATE resolvers SET demoted_until = ?2, demotion_reason = ?3, demotions = demotions + 1, updated_at = ?4
       WHERE address = ?1`,
    )
    .bind(resolverKey(address), demotion.until, demotion.reason, at);
  const results = await db.batch(create ? [namelessEntryStatement(db, address, at), update] : [update]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/** Admin: lift a demotion; returns false when the resolver is unknown. */
export async function reinstateResolver(db: D1Database, address: string, at: string): Promise<boolean> {
  const r = await db
    .prepare("UPDATE resolvers SET demoted_until = NULL, demotion_reason = NULL, updated_at = ?2 WHERE address = ?1")
    .bind(resolverKey(address), at)
    .run();
  return r.meta.changes > 0;
}

/**
 * What auctions need of the directory (src/resolvers/standing.ts): who is demoted at `now`, and each
 * resolver's reliability counters since `windowStart`. One round trip.
 */
export async function readStandingRows(
  db: D1Database,
  now: number,
  windowStart: string,
): Promise<{ demoted: string[]; totals: Map<string, Totals> }> {
  const [demoted, totals] = (await db.batch([
    db.prepare("SELECT address FROM resolvers WHERE demoted_until > ?").bind(new Date(now).toISOString()),
    totalsStatement(db, windowStart),
  ])) as [D1Result<{ address: string }>, D1Result<Totals & { address: string }>];
  return { demoted: demoted.results.map((r) => r.address), totals: totalsByAddress(totals.results) };
}
