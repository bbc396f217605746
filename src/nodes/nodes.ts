import type { InventoryEntry, NodeState } from "../protocol/frames";
import { STALE_AFTER_MS } from "../protocol/frames";

/** A corridor as a node advertised it: the token order of its connect URL. */
export interface AdvertisedCorridor {
  chainId: number;
  baseToken: string;
  quoteToken: string;
}

export interface ChainStatus {
  chainId: number;
  state: NodeState;
  degraded: string | null;
}

/** What a corridor knows of one authenticated node socket. */
export interface NodeSession {
  address: string;
  name: string;
  version: string;
  region: string | null;
  signerType: string | null;
  solanaAddress: string | null;
  corridor: AdvertisedCorridor;
  connectedAt: number;
  lastHeartbeat: number | null;
  state: NodeState;
  degraded: string | null;
  inventory: InventoryEntry[];
  chains: ChainStatus[];
}

/** Record 2.3. `solanaAddress` is present only once the node proved a Solana key. */
export interface NodeRecord {
  address: string;
  name: string;
  version: string;
  state: NodeState;
  degraded: string | null;
  region: string | null;
  signerType: string | null;
  fresh: boolean;
  corridors: AdvertisedCorridor[];
  inventory: InventoryEntry[];
  connectedAt: string;
  lastHeartbeat: string | null;
  solanaAddress?: string;
  chains: ChainStatus[];
}

export function isFresh(lastHeartbeat: number | null, now: number): boolean {
  return lastHeartbeat !== null && now - lastHeartbeat <= STALE_AFTER_MS;
}

/**
 * One entry per node across every corridor it is connected to: corridors are listed together,
 * identity and state come from the most recent heartbeat, inventory and chains are merged with the
 * newest report winning per token and per chain.
 */
export function mergeNodes(sessions: readonly NodeSession[], now: number): NodeRecord[] {
  const byAddress = new Map<string, NodeSession[]>();
  for (const s of sessions) {
    const key = s.address.toLowerCase();
    const list = byAddress.get(key);
    if (list) list.push(s);
    else byAddress.set(key, [s]);
  }
  const nodes: NodeRecord[] = [];
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
        const k = `${i.chainId}:${i.token.toLowerCase()}`;
        if (!inventory.has(k)) inventory.set(k, i);
      }
      for (const c of s.chains) if (!chains.has(c.chainId)) chains.set(c.chainId, c);
    }
    const solanaAddress = ordered.find((s) => s.solanaAddress)?.solanaAddress;
    const lastHeartbeat = latest.lastHeartbeat;
    nodes.push({
      address: latest.address,
      name: latest.name,
      version: latest.version,
      state: latest.state,
      degraded: latest.state === "degraded" ? latest.degraded : null,
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
