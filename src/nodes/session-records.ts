import { countStatement } from "../db/resolver-days";
import { isRegistered, recordNodeSeen, touchStatement } from "../db/resolvers";
import type { NodeState } from "../protocol/frames";
import { accrue, startUptime } from "../resolvers/uptime";
import type { Attachment } from "./node-sockets";

/** How often a node's heartbeats may refresh its directory entry in D1. */
const DIRECTORY_WRITE_EVERY_MS = 60_000;

/**
 * A node session's state as D1 keeps it: its directory entry (created at auth, `last_seen` and state
 * refreshed at most once a minute) and its uptime counters of the day (docs/reliability.md). Writes run
 * behind the object's answer (`waitUntil`).
 */
export class SessionRecords {
  constructor(
    private readonly db: D1Database,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  registered(address: string): Promise<boolean> {
    return isRegistered(this.db, address);
  }

  /** The node authenticated: its directory entry is created or refreshed, with the corridor it advertised. */
  seen(attachment: Attachment, now: number): void {
    const node = attachment.node;
    if (!node) return;
    const { address, solanaAddress, name, version, region, signerType } = node;
    const seen = { address, solanaAddress, name, version, region, signerType, corridor: attachment.corridor };
    const at = new Date(now).toISOString();
    this.waitUntil(recordNodeSeen(this.db, { ...seen, state: null, degraded: null, at }));
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
    return [countStatement(this.db, node.address, counts, at)];
  }
}
