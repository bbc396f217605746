import { countStatement, inDirectory, isRegistered, nodeSeenStatement, type SeenNode, touchStatement } from "../db";
import type { NodeState } from "../protocol";
import { accrue, startUptime } from "../resolvers";
import type { Attachment } from "./node-sockets";

/** How often a node's heartbeats may refresh its directory entry in D1. */
const DIRECTORY_WRITE_EVERY_MS = 60_000;

/**
 * A node session's state as D1 keeps it: its directory entry and its uptime counters of the day
 * (docs/reliability.md, "The directory"). The entry is made only once the node is registered or the chain
 * covered what it claims (`listed`); from then on auth refreshes it and heartbeats refresh `last_seen` and
 * the state at most once a minute, and uptime is counted only for a node that has one. Writes run behind
 * the object's answer (`waitUntil`).
 */
export class SessionRecords {
  constructor(
    private readonly db: D1Database,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  registered(address: string): Promise<boolean> {
    return isRegistered(this.db, address);
  }

  /** The node authenticated: its directory entry, if it has one, is refreshed with the corridor it advertised. */
  seen(attachment: Attachment, now: number): void {
    const seen = seenNode(attachment, { state: null, degraded: null }, now);
    if (seen) this.waitUntil(nodeSeenStatement(this.db, seen, false).run());
  }

  /**
   * The chain covered what the node claims: its directory entry is made (or refreshed) with its state as
   * shown, and the uptime it accrued since the last write is counted; the caller saves the attachment.
   */
  listed(attachment: Attachment, shown: { state: NodeState; degraded: string | null }, now: number): void {
    const seen = seenNode(attachment, shown, now);
    if (!seen) return;
    attachment.lastDirectoryWrite = now;
    const { db } = this;
    this.waitUntil(db.batch([nodeSeenStatement(db, seen, true), ...this.takeUptime(attachment, seen.at)]));
  }

  /** Whether a heartbeat at `now` should refresh the directory entry. */
  due(attachment: Attachment, now: number): boolean {
    return now - attachment.lastDirectoryWrite >= DIRECTORY_WRITE_EVERY_MS;
  }

  /** Refreshes the directory entry (`last_seen`, the state as shown) and adds the uptime accrued; the caller saves the attachment. */
  touch(attachment: Attachment, shown: { state: NodeState; degraded: string | null }, now: number): void {
    const node = attachment.node;
    if (!node) return;
    attachment.lastDirectoryWrite = now;
    const at = new Date(now).toISOString();
    const { db } = this;
    this.waitUntil(
      db.batch([touchStatement(db, node.address, shown.state, shown.degraded, at), ...this.takeUptime(attachment, at)]),
    );
  }

  /** The socket closed: the uptime it accrued up to `now` is added to its node's counters. */
  release(attachment: Attachment, now: number): void {
    const node = attachment.node;
    if (!node) return;
    attachment.uptime = accrue(attachment.uptime, node.lastHeartbeat, now);
    const written = this.takeUptime(attachment, new Date(now).toISOString());
    if (written.length > 0) this.waitUntil(this.db.batch(written));
  }

  /** The uptime the socket accrued, as a write to its node's counters of the day of `at`; counted afresh from `at`. */
  private takeUptime(attachment: Attachment, at: string): D1PreparedStatement[] {
    const { node, uptime } = attachment;
    attachment.uptime = startUptime(uptime.since);
    if (!node || uptime.connectedMs === 0) return [];
    const counts = { connectedMs: uptime.connectedMs, freshMs: uptime.freshMs };
    return [countStatement(this.db, node.address, counts, at, inDirectory(node.address))];
  }
}

/** The directory's view of an authenticated node on its socket's corridor, at `now`; null before auth. */
function seenNode(
  attachment: Attachment,
  shown: { state: NodeState | null; degraded: string | null },
  now: number,
): SeenNode | null {
  const node = attachment.node;
  if (!node) return null;
  const { address, ed25519Key: solanaAddress, name, version, region, signerType } = node;
  const at = new Date(now).toISOString();
  return { address, solanaAddress, name, version, region, signerType, corridor: attachment.corridor, ...shown, at };
}
