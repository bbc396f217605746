import { adapterFor, type Corridor, type InventoryReader, inventoryReaderFor, type ProvedKeys } from "../chains";
import { resolverKey } from "../ids";
import { log } from "../log";
import {
  type Claims,
  chainCovers,
  claimsCovered,
  claimsExceed,
  type InventoryCheck,
  type SameToken,
} from "./inventory-rules";
import { ACCOUNT_MISSING, ACCOUNT_OWNER_CHANGED, type ChainFlag, HAS_CODE, INVENTORY_MISMATCH } from "./nodes";

/** A node's holdings are read from the chain at most this often (docs/resolver-protocol.md). */
export const READ_EVERY_MS = 10_000;

/** Read start times kept at most, before those older than READ_EVERY_MS are let go. */
const MAX_REMEMBERED_STARTS = 1_024;

export type { Claims, InventoryCheck } from "./inventory-rules";

/** Where checks are kept so that they survive hibernation, by node address (lowercase). */
export interface CheckStore {
  get(address: string): InventoryCheck | undefined;
  put(address: string, check: InventoryCheck): void;
  delete(address: string): void;
}

/** The inventory checks' host: the corridor object whose nodes they check, and what they tell it. */
export interface InventoryChecksHost {
  /** The chain's reader (`inventoryReaderFor`). */
  reader: InventoryReader;
  /** The tokens read: the corridor's. */
  tokens: readonly string[];
  sameToken: SameToken;
  /** What the node's last heartbeat claims, or null before its first heartbeat. */
  claims(address: string): Claims | null;
  store: CheckStore;
  waitUntil(p: Promise<unknown>): void;
  /** What the chain holds against the node changed (`InventoryChecks.flag`). */
  onFlagChange(address: string, flag: ChainFlag | null): void;
  /** A read covered what the node claims, for the first time since it authenticated (`claimsCovered`). */
  onCovered(address: string): void;
}

/** What of the inventory checks' host the corridor's node sessions are: whose claims they are, and who hears the verdicts. */
export type SessionsSide = Pick<InventoryChecksHost, "claims" | "onFlagChange" | "onCovered">;

/** The inventory checks as a corridor's node sessions use them. */
export type NodeChecks = Pick<InventoryChecks, "restart" | "heard" | "forget" | "flag" | "covers" | "readAt">;

/** The on-chain checks of a corridor's nodes, kept in its object's storage, built around its sessions. */
export function chainChecks(
  state: { storage: { kv: SyncKvStorage }; waitUntil(p: Promise<unknown>): void },
  corridor: Corridor,
): (sessions: SessionsSide) => NodeChecks {
  return (sessions) =>
    new InventoryChecks({
      ...sessions,
      reader: inventoryReaderFor(corridor.chain),
      tokens: corridor.tokens,
      sameToken: adapterFor(corridor.chain).sameAddress,
      store: kvCheckStore(state.storage.kv),
      waitUntil: (p) => state.waitUntil(p),
    });
}

/** Checks kept in a Durable Object's synchronous key-value storage. */
export function kvCheckStore(kv: SyncKvStorage): CheckStore {
  const at = (address: string) => `inventory:${address}`;
  return {
    get: (address) => kv.get<InventoryCheck>(at(address)),
    put: (address, check) => kv.put(at(address), check),
    delete: (address) => {
      kv.delete(at(address));
    },
  };
}

/**
 * The corridor's on-chain checks of its nodes' inventory (docs/resolver-protocol.md, "Inventory checked
 * on chain"): reads run in the background, at most one per node at a time and one per node every
 * READ_EVERY_MS; the auction only looks at the last completed read. A failed read keeps the previous one.
 *
 * A node's balances move between a read and its next heartbeat (a fill pays out one token and brings in
 * the other), so claims are held against a read only when they were made as it started or after:
 * the heartbeat that started it, or the first heartbeat after a read started at auth. Any comparison
 * may clear a mismatch. The first comparison of current claims that the read covers (`claimsCovered`)
 * is told to the host once per session.
 */
export class InventoryChecks {
  private readonly checks = new Map<string, InventoryCheck>();
  /** The read under way per node, by a token that a restart or `forget` invalidates. */
  private readonly pending = new Map<string, symbol>();
  private readonly startedAt = new Map<string, number>();
  private readonly failing = new Set<string>();
  /** The last checks of nodes that left, for a quick return (`restart`); let go with their read's start. */
  private readonly departed = new Map<string, InventoryCheck>();
  /** Nodes that left while a read of them was under way. */
  private readonly gone = new Set<string>();

  constructor(private readonly host: InventoryChecksHost) {}

  /**
   * A node authenticated: whatever was known of it is dropped and its holdings are read afresh, but no
   * sooner than a heartbeating node's would be: a node that re-authenticates in a loop reads the chain
   * once every READ_EVERY_MS per address, not once per socket (docs/security.md, "A stranger opens sockets, or a node re-authenticates in a loop").
   */
  restart(node: ProvedKeys, now: number): void {
    const key = resolverKey(node.address);
    this.gone.delete(key);
    const last = this.get(key) ?? this.departed.get(key);
    this.drop(key);
    this.departed.delete(key);
    // A read younger than READ_EVERY_MS (or one under way) still tells what the address holds: it serves
    // the new session, whose claims are compared with it afresh.
    const fresh = now - (this.startedAt.get(key) ?? -Infinity) < READ_EVERY_MS;
    if (last && fresh) this.keep(key, { ...last, reviewed: false });
    this.refresh(node, now);
  }

  /** Starts a read of the node's holdings unless one is under way or the last started under READ_EVERY_MS ago. */
  refresh(node: ProvedKeys, now: number): void {
    const { reader, tokens } = this.host;
    const key = resolverKey(node.address);
    if (this.pending.has(key) || now - (this.startedAt.get(key) ?? -Infinity) < READ_EVERY_MS) return;
    if (this.startedAt.size >= MAX_REMEMBERED_STARTS) {
      for (const [address, at] of this.startedAt) {
        if (now - at < READ_EVERY_MS) continue;
        this.startedAt.delete(address);
        this.departed.delete(address);
      }
    }
    const token = Symbol(key);
    this.pending.set(key, token);
    this.startedAt.set(key, now);
    const read = reader(node, tokens).then(
      (found) => this.settle(key, token, { at: now, ...found }),
      (e: unknown) => this.settle(key, token, e instanceof Error ? e : new Error(String(e))),
    );
    this.host.waitUntil(read);
  }

  /** A node heartbeated: its claims are compared with the last read, and a read is started when due. */
  heard(node: ProvedKeys, now: number): void {
    this.refresh(node, now);
    const key = resolverKey(node.address);
    const before = this.flagOf(key);
    this.review(key);
    this.tell(key, before);
  }

  /** Whether the chain lets the node be asked for, or bid, `amount` of `token` (see `chainCovers`). */
  covers(address: string, token: string, amount: bigint): boolean {
    return chainCovers(this.get(resolverKey(address)), token, amount, this.host.sameToken);
  }

  /** When the last successful read of the node started, or null before one (src/auction/taker-holds.ts). */
  readAt(address: string): number | null {
    return this.get(resolverKey(address))?.read?.at ?? null;
  }

  /**
   * What the chain holds against the node, shown as its `degraded` reason: `has_code` while the last read
   * found code at its address, else `account_owner_changed` while it found an account of the node's owned
   * by another key, else `account_missing` while it found an account of the node's missing, else
   * `inventory_mismatch` while it claims more than it holds, else null.
   */
  flag(address: string): ChainFlag | null {
    return this.flagOf(resolverKey(address));
  }

  private flagOf(key: string): ChainFlag | null {
    const check = this.get(key);
    if (check?.read?.hasCode) return HAS_CODE;
    if (check?.read?.ownerChanged) return ACCOUNT_OWNER_CHANGED;
    if (check?.read?.accountMissing) return ACCOUNT_MISSING;
    return check?.mismatch ? INVENTORY_MISMATCH : null;
  }

  private tell(key: string, before: ChainFlag | null): void {
    const after = this.flagOf(key);
    if (after !== before) this.host.onFlagChange(key, after);
  }

  /** Compares the node's claims with its last read (after a heartbeat, and after each read). */
  private review(key: string): void {
    const check = this.get(key);
    const claims = this.host.claims(key);
    if (!check?.read || !claims) return;
    const { sameToken } = this.host;
    const exceed = claimsExceed(claims.inventory, check.read, sameToken);
    const current = claims.at >= check.read.at;
    // Older claims may only clear a mismatch, and a read flags a node once.
    const mismatch = current && !check.reviewed ? exceed : check.mismatch && exceed;
    const reviewed = check.reviewed || current;
    const wasCovered = check.covered === true;
    const covered = wasCovered || (current && claimsCovered(claims.inventory, check.read, sameToken));
    if (mismatch === check.mismatch && reviewed === check.reviewed && covered === wasCovered) return;
    this.keep(key, { ...check, reviewed, mismatch, covered });
    if (covered && !wasCovered) this.host.onCovered(key);
  }

  /**
   * The node left: its check is dropped. Its last read (or the one under way, once it completes) and when it
   * started are kept in memory only, so that coming back does not read the chain sooner.
   */
  forget(address: string): void {
    const key = resolverKey(address);
    const check = this.get(key);
    if (check) this.departed.set(key, check);
    if (this.pending.has(key)) this.gone.add(key);
    this.drop(key);
  }

  /** Drops what is known of the node now; a read under way goes on. */
  private drop(key: string): void {
    this.checks.delete(key);
    this.host.store.delete(key);
    this.failing.delete(key);
  }

  private settle(key: string, token: symbol, outcome: NonNullable<InventoryCheck["read"]> | Error): void {
    if (this.pending.get(key) !== token) return;
    this.pending.delete(key);
    if (this.gone.delete(key)) {
      // Kept for the node's return as a read of a connected node would be: a failed read keeps what came before.
      const previous = this.departed.get(key);
      const failed = previous ?? { read: null, reviewed: false, mismatch: false };
      this.departed.set(key, outcome instanceof Error ? failed : { read: outcome, reviewed: false, mismatch: false });
      return;
    }
    const previous = this.get(key);
    const before = this.flagOf(key);
    if (outcome instanceof Error) {
      // Logged once per run of failures: a relay whose RPC is down would log every node every 10 s.
      if (!this.failing.has(key)) log.warn("inventory_read_failed", { inventoryRead: key, error: outcome.message });
      this.failing.add(key);
      this.keep(key, previous ?? { read: null, reviewed: false, mismatch: false });
    } else {
      this.failing.delete(key);
      this.keep(key, {
        read: outcome,
        reviewed: false,
        mismatch: previous?.mismatch ?? false,
        covered: previous?.covered ?? false,
      });
    }
    this.review(key);
    this.tell(key, before);
  }

  private get(key: string): InventoryCheck | null {
    let check = this.checks.get(key);
    if (!check) {
      check = this.host.store.get(key);
      if (check) this.checks.set(key, check);
    }
    return check ?? null;
  }

  private keep(key: string, check: InventoryCheck): void {
    this.checks.set(key, check);
    this.host.store.put(key, check);
  }
}
