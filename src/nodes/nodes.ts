import { addressKey, type ProvedKeys } from "../chains";
import { resolverKey } from "../ids";
import { type InventoryEntry, type NodeState, STALE_AFTER_MS } from "../protocol";
import type { AdvertisedCorridor, Node } from "../schemas";

export type ChainStatus = Node["chains"][number];

/**
 * One authenticated node socket of a corridor: the keys and identity it proved at auth, the corridor as
 * it advertised it, and what its last heartbeat said (times in ms).
 */
export interface NodeSession
  extends ProvedKeys,
    Pick<Node, "name" | "version" | "region" | "signerType" | "state" | "degraded" | "inventory" | "chains"> {
  corridor: AdvertisedCorridor;
  connectedAt: number;
  lastHeartbeat: number | null;
  /** What the relay's on-chain reads hold against it (`InventoryChecks.flag`; absent: nothing). */
  chainFlag?: ChainFlag | null;
}

/** The `degraded` reason of a node that claims more inventory than it holds on chain. */
export const INVENTORY_MISMATCH = "inventory_mismatch";

/**
 * The `degraded` reason of a node whose address has code (a contract, or an EOA delegated by EIP-7702):
 * it is not asked, since the chain would check its signatures by that code (docs/resolver-protocol.md).
 */
export const HAS_CODE = "has_code";

/**
 * The `degraded` reason of a node one of whose token accounts another key owns (Solana: given away with
 * SPL Token's `SetAuthority`): it is not asked, since a swap would fail at that account (docs/reliability.md).
 */
export const ACCOUNT_OWNER_CHANGED = "account_owner_changed";

/**
 * The `degraded` reason of a node one of whose token accounts does not exist (Solana: never created, or
 * closed with SPL Token's `CloseAccount`): it is not asked, since a swap paying its sale into that account
 * would have to create it (docs/security.md, "A token account closed for its rent").
 */
export const ACCOUNT_MISSING = "account_missing";

/** What the relay's on-chain reads hold against a node, shown as its `degraded` reason. */
export type ChainFlag =
  | typeof HAS_CODE
  | typeof ACCOUNT_OWNER_CHANGED
  | typeof ACCOUNT_MISSING
  | typeof INVENTORY_MISMATCH;

/** The chain flags in the order a node shows them: of those any of its corridors holds against it, the first. */
const CHAIN_FLAGS: readonly ChainFlag[] = [HAS_CODE, ACCOUNT_OWNER_CHANGED, ACCOUNT_MISSING, INVENTORY_MISMATCH];

/** The `degraded` reason of a node that authenticated and has not sent a heartbeat yet (it said nothing). */
export const NO_HEARTBEAT = "no_heartbeat";

/**
 * A node's state as the relay shows it: the heartbeat's, except that a node the chain flags shows
 * `degraded` with the flag: `has_code` until its address has no code, `account_owner_changed` until its
 * accounts are its own again, `account_missing` until each exists, `inventory_mismatch` until its claims
 * are true again.
 */
export function shownState(
  state: NodeState,
  degraded: string | null,
  chainFlag: ChainFlag | null,
): { state: NodeState; degraded: string | null } {
  if (chainFlag) return { state: "degraded", degraded: chainFlag };
  return { state, degraded: state === "degraded" ? degraded : null };
}

export function isFresh(lastHeartbeat: number | null, now: number): boolean {
  return lastHeartbeat !== null && now - lastHeartbeat <= STALE_AFTER_MS;
}

/**
 * One entry per node across every corridor it is connected to: corridors are listed together,
 * identity and state come from the most recent heartbeat (shown degraded when any corridor's chain reads
 * flag it, the first of `CHAIN_FLAGS`), inventory and chains are merged with the newest report winning per token
 * and per chain.
 */
export function mergeNodes(sessions: readonly NodeSession[], now: number): Node[] {
  const byAddress = new Map<string, NodeSession[]>();
  for (const s of sessions) {
    const key = resolverKey(s.address);
    const list = byAddress.get(key);
    if (list) list.push(s);
    else byAddress.set(key, [s]);
  }
  const nodes: Node[] = [];
  for (const group of byAddress.values()) {
    // Newest heartbeat first; never-heartbeated sessions last, newest connection first among them.
    const ordered = [...group].sort(
      (a, b) => (b.lastHeartbeat ?? -1) - (a.lastHeartbeat ?? -1) || b.connectedAt - a.connectedAt,
    );
    const latest = ordered[0] as NodeSession;
    const inventory = new Map<string, InventoryEntry>();
    const chains = new Map<number, ChainStatus>();
    for (const s of ordered) {
      for (const i of s.inventory) {
        const k = `${i.chainId}:${addressKey(i.token)}`;
        if (!inventory.has(k)) inventory.set(k, i);
      }
      for (const c of s.chains) if (!chains.has(c.chainId)) chains.set(c.chainId, c);
    }
    const solanaAddress = ordered.find((s) => s.ed25519Key)?.ed25519Key;
    const lastHeartbeat = latest.lastHeartbeat;
    const flags = new Set(group.map((s) => s.chainFlag));
    const chainFlag = CHAIN_FLAGS.find((flag) => flags.has(flag)) ?? null;
    nodes.push({
      address: latest.address,
      name: latest.name,
      version: latest.version,
      ...shownState(latest.state, latest.degraded, chainFlag),
      region: latest.region,
      signerType: latest.signerType,
      fresh: isFresh(lastHeartbeat, now),
      corridors: sortCorridors(group.map((s) => s.corridor)),
      inventory: [...inventory.values()],
      connectedAt: new Date(Math.min(...group.map((s) => s.connectedAt))).toISOString(),
      lastHeartbeat: lastHeartbeat === null ? null : new Date(lastHeartbeat).toISOString(),
      ...(solanaAddress ? { solanaAddress } : {}),
      chains: [...chains.values()].sort((a, b) => a.chainId - b.chainId),
    });
  }
  return nodes.sort((a, b) => a.name.localeCompare(b.name) || a.address.localeCompare(b.address));
}

function sortCorridors(corridors: AdvertisedCorridor[]): AdvertisedCorridor[] {
  const seen = new Map<string, AdvertisedCorridor>();
  for (const c of corridors) seen.set(`${c.chainId}:${c.baseToken}:${c.quoteToken}`, c);
  return [...seen.values()].sort(
    (a, b) =>
      a.chainId - b.chainId || a.baseToken.localeCompare(b.baseToken) || a.quoteToken.localeCompare(b.quoteToken),
  );
}
