/**
 * Transaction fees as a validator charges them: 5,000 lamports per signature (the transaction's and those
 * its signature-verification precompile instructions check) plus the prioritization fee,
 * ceil(compute unit price × compute unit limit / 1,000,000), both set by Compute Budget instructions.
 */

export const LAMPORTS_PER_SIGNATURE = 5_000;
export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";

const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
/** The limit an instruction gets when the transaction sets none (builtins are cheap, SIMD-0170). */
const DEFAULT_INSTRUCTION_UNITS = 200_000;
const DEFAULT_BUILTIN_INSTRUCTION_UNITS = 3_000;
const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;

const PRECOMPILES = new Set([
  "Ed25519SigVerify111111111111111111111111111",
  "KeccakSecp256k11111111111111111111111111111",
  "Secp256r1SigVerify1111111111111111111111111",
]);
const BUILTINS = new Set([
  "11111111111111111111111111111111",
  COMPUTE_BUDGET_PROGRAM,
  "Vote111111111111111111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
  ...PRECOMPILES,
]);

export interface FeeInstruction {
  programId: string;
  data: Uint8Array;
}

export interface ComputeBudget {
  /** Compute units the transaction may use. */
  unitLimit: number;
  /** Micro-lamports per compute unit. */
  unitPrice: bigint;
}

/** What the Compute Budget instructions of a transaction ask for, defaults filled in. */
export function computeBudget(instructions: readonly FeeInstruction[]): ComputeBudget {
  let limit: number | undefined;
  let unitPrice = 0n;
  let defaultLimit = 0;
  for (const ix of instructions) {
    if (ix.programId === COMPUTE_BUDGET_PROGRAM) {
      const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
      if (ix.data[0] === 2 && ix.data.length >= 5) limit = view.getUint32(1, true);
      if (ix.data[0] === 3 && ix.data.length >= 9) unitPrice = view.getBigUint64(1, true);
    }
    defaultLimit += BUILTINS.has(ix.programId) ? DEFAULT_BUILTIN_INSTRUCTION_UNITS : DEFAULT_INSTRUCTION_UNITS;
  }
  return { unitLimit: Math.min(limit ?? defaultLimit, MAX_COMPUTE_UNIT_LIMIT), unitPrice };
}

/** The prioritization fee in lamports, rounded up. */
export function prioritizationFee(budget: ComputeBudget): bigint {
  const micro = budget.unitPrice * BigInt(budget.unitLimit);
  return (micro + MICRO_LAMPORTS_PER_LAMPORT - 1n) / MICRO_LAMPORTS_PER_LAMPORT;
}

/** The fee in lamports of a transaction with `signatures` signatures and these instructions. */
export function transactionFee(signatures: number, instructions: readonly FeeInstruction[]): bigint {
  const precompileSignatures = instructions
    .filter((ix) => PRECOMPILES.has(ix.programId))
    .reduce((sum, ix) => sum + (ix.data[0] ?? 0), 0);
  const base = BigInt(LAMPORTS_PER_SIGNATURE * (signatures + precompileSignatures));
  return base + prioritizationFee(computeBudget(instructions));
}
