import type { InventoryRead } from "../chains";
import type { InventoryEntry } from "../protocol";

/**
 * The rules a node's on-chain inventory check applies (docs/resolver-protocol.md, "Inventory checked on
 * chain"): pure functions of a read and a heartbeat's claims, which `InventoryChecks` keeps and applies.
 */

/** What the relay knows of one node's holdings on chain, once a read of them has completed. */
export interface InventoryCheck {
  /** The last read that succeeded (`at`: when it started), or null while every read has failed. */
  read: ({ at: number } & InventoryRead) | null;
  /** Whether `read` was compared with claims the node made as it started, or after. */
  reviewed: boolean;
  /** Whether the node claims more than it holds (see `InventoryChecks`). */
  mismatch: boolean;
  /**
   * Whether a read has covered what the node claimed at least once since it authenticated
   * (`claimsCovered`): from then on it has a directory entry. Absent: not yet.
   */
  covered?: boolean;
}

/** What a node's last heartbeat claims, and when it was heard. */
export interface Claims {
  inventory: readonly InventoryEntry[];
  at: number;
}

export type SameToken = (a: string, b: string) => boolean;

/**
 * Whether a check lets a node be asked for, or bid, `amount` of `token`. No completed read: not yet.
 * Only failed reads: yes, on its heartbeat alone, so an RPC outage on the relay's side does not stop
 * quoting. Otherwise the last successful read must show no code at the node's address (its signature
 * would be checked on chain by that code), none of its accounts owned by another key (a swap would fail
 * at it) or missing (a swap would have to create it) and `amount` in both balance and allowance.
 */
export function chainCovers(
  check: InventoryCheck | null,
  token: string,
  amount: bigint,
  sameToken: SameToken,
): boolean {
  if (!check) return false;
  if (!check.read) return true;
  if (check.read.hasCode || check.read.ownerChanged || check.read.accountMissing) return false;
  const entry = check.read.entries.find((e) => sameToken(e.token, token));
  return entry !== undefined && BigInt(entry.balance) >= amount && BigInt(entry.allowance) >= amount;
}

/** Whether a heartbeat claims more balance or allowance of a token than the chain read shows. */
export function claimsExceed(
  claims: readonly InventoryEntry[],
  read: InventoryCheck["read"],
  sameToken: SameToken,
): boolean {
  if (!read) return false;
  return read.entries.some((held) => {
    const claim = claims.find((c) => c.chainId === held.chainId && sameToken(c.token, held.token));
    return (
      claim !== undefined &&
      (BigInt(claim.balance) > BigInt(held.balance) || BigInt(claim.allowance) > BigInt(held.allowance))
    );
  });
}

/**
 * Whether a heartbeat's claims are what the chain shows: the node claims some balance and allowance of a
 * token the read covers, and nothing above the read. A key that claims nothing, or more than it holds,
 * is not covered: only a node that holds what it offers is written into the directory
 * (docs/reliability.md, "The directory").
 */
export function claimsCovered(
  claims: readonly InventoryEntry[],
  read: InventoryCheck["read"],
  sameToken: SameToken,
): boolean {
  if (!read || claimsExceed(claims, read, sameToken)) return false;
  return read.entries.some((held) =>
    claims.some(
      (c) =>
        c.chainId === held.chainId &&
        sameToken(c.token, held.token) &&
        BigInt(c.balance) > 0n &&
        BigInt(c.allowance) > 0n,
    ),
  );
}
