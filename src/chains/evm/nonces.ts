/**
 * The nonce of the keeper's next transaction. The chain's pending count is the truth once every
 * transaction of the keeper is mined; while some are not, the stored next nonce also covers an RPC node
 * that has not seen them yet.
 */
export function chooseNonce(args: { pending: number; stored: number | null; unmined: boolean }): number {
  return args.unmined ? Math.max(args.stored ?? 0, args.pending) : args.pending;
}
