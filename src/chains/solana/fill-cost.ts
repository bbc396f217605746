const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * What a Solana fill costs in lamports: its signatures, its compute budget (`computeUnitPrice` in
 * micro-lamports per unit, rounded up) and the rent of every token account it creates.
 */
export function solanaFillCost(args: {
  signatures: number;
  lamportsPerSignature: bigint;
  computeUnitLimit: number;
  computeUnitPrice: bigint;
  accountsCreated: number;
  rentPerAccount: bigint;
}): bigint {
  const signatures = BigInt(args.signatures) * args.lamportsPerSignature;
  const compute = ceilDiv(BigInt(args.computeUnitLimit) * args.computeUnitPrice, 1_000_000n);
  return signatures + compute + BigInt(args.accountsCreated) * args.rentPerAccount;
}
