/**
 * Transaction errors in the JSON form validators answer with (serde's externally tagged enums):
 * `"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`, `{"InstructionError":[1,"InvalidArgument"]}`,
 * and the sentences they print for them (`Transaction simulation failed: <sentence>`).
 */

export type InstructionErrorJson = string | { Custom: number } | { BorshIoError: string };

export type TransactionErrorJson =
  | string
  | { InstructionError: [number, InstructionErrorJson] }
  | { DuplicateInstruction: number }
  | { InsufficientFundsForRent: { account_index: number } }
  | { ProgramExecutionTemporarilyRestricted: { account_index: number } };

/** LiteSVM's fieldless transaction errors, by their numeric value. */
export const TRANSACTION_ERROR_NAMES = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

/** LiteSVM's fieldless instruction errors, by their numeric value. */
export const INSTRUCTION_ERROR_NAMES = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

/** The sentences of the errors a client is likely to meet; any other prints as its name. */
const TRANSACTION_SENTENCES: Record<string, string> = {
  AccountInUse: "Account in use",
  AccountLoadedTwice: "Account loaded twice",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  InsufficientFundsForFee: "Insufficient funds for fee",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  MissingSignatureForFee: "Transaction requires a fee but has no signature present",
  InvalidAccountIndex: "Transaction contains an invalid account reference",
  SignatureFailure: "Transaction did not pass signature verification",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
};

const INSTRUCTION_SENTENCES: Record<string, string> = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  UnbalancedInstruction: "sum of account balances before and after instruction do not match",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  ProgramFailedToComplete: "Program failed to complete",
  InvalidAccountOwner: "Invalid account owner",
  ArithmeticOverflow: "Program arithmetic overflowed",
};

export function fieldlessTransactionError(value: number): string {
  return TRANSACTION_ERROR_NAMES[value] ?? `TransactionError(${value})`;
}

export function fieldlessInstructionError(value: number): string {
  return INSTRUCTION_ERROR_NAMES[value] ?? `InstructionError(${value})`;
}

function instructionSentence(err: InstructionErrorJson): string {
  if (typeof err === "string") return INSTRUCTION_SENTENCES[err] ?? err;
  if ("Custom" in err) return `custom program error: 0x${err.Custom.toString(16)}`;
  return `Failed to serialize or deserialize account data: ${err.BorshIoError}`;
}

/** The sentence a validator prints for `err`. */
export function transactionErrorMessage(err: TransactionErrorJson): string {
  if (typeof err === "string") return TRANSACTION_SENTENCES[err] ?? err;
  if ("InstructionError" in err) {
    const [index, inner] = err.InstructionError;
    return `Error processing Instruction ${index}: ${instructionSentence(inner)}`;
  }
  if ("DuplicateInstruction" in err) {
    return `Transaction contains a duplicate instruction (${err.DuplicateInstruction}) that is not allowed`;
  }
  if ("InsufficientFundsForRent" in err) {
    const index = err.InsufficientFundsForRent.account_index;
    return `Transaction results in an account (${index}) with insufficient funds for rent`;
  }
  const index = err.ProgramExecutionTemporarilyRestricted.account_index;
  return `Execution of the program referenced by account at index ${index} is temporarily restricted.`;
}
