import { describe, expect, it } from "vitest";
import { shortTransactionError, simulationFailureReason } from "../../src/chains/solana/swap-failures";
import { tokenBalanceChanges } from "../../src/chains/solana/swap-receipt";
import type { SwapTransfer } from "../../src/chains/solana/swap-transfers";

const leg = (index: number, from: string): SwapTransfer => ({
  index,
  from,
  source: `${from}-account`,
  destination: "dest",
  mint: "mint",
  amount: 1n,
});
/** A swap whose four legs are instructions 6–9: proceeds (taker), received, fee and gas fee (resolver). */
const buyGas = [leg(6, "taker"), leg(7, "resolver"), leg(8, "resolver"), leg(9, "resolver")];
/** The gas fee charged in the sell token: the last leg is the taker's. */
const sellGas = [leg(6, "taker"), leg(7, "resolver"), leg(8, "resolver"), leg(9, "taker")];
const insufficient = (index: number) => ({ InstructionError: [index, { Custom: 1 }] });

describe("simulationFailureReason", () => {
  it("blames the leg's payer for a short or missing source account", () => {
    expect(simulationFailureReason(insufficient(6), [], buyGas)).toBe("taker:insufficient_balance");
    expect(simulationFailureReason({ InstructionError: [6, "InvalidAccountData"] }, [], buyGas)).toBe(
      "taker:insufficient_balance",
    );
    expect(simulationFailureReason(insufficient(7), [], buyGas)).toBe("resolver:insufficient_balance");
    expect(simulationFailureReason({ InstructionError: [8, "UninitializedAccount"] }, [], buyGas)).toBe(
      "resolver:insufficient_balance",
    );
    expect(simulationFailureReason(insufficient(9), [], buyGas)).toBe("resolver:insufficient_balance");
    expect(simulationFailureReason(insufficient(9), [], sellGas)).toBe("taker:insufficient_balance");
  });

  it("reads the token program's log when the error is not its code", () => {
    const logs = ["Program log: Instruction: TransferChecked", "Program log: Error: insufficient funds"];
    expect(simulationFailureReason({ InstructionError: [7, "Custom"] }, logs, buyGas)).toBe(
      "resolver:insufficient_balance",
    );
  });

  it("sends a taker whose blockhash expired back for a new quote", () => {
    expect(simulationFailureReason("BlockhashNotFound", [], buyGas)).toBe("taker:blockhash_expired");
  });

  it("names anything else, outside the legs included", () => {
    expect(simulationFailureReason(insufficient(2), [], buyGas)).toBe(
      "relay:simulation_failed:instruction_2:Custom(1)",
    );
    expect(simulationFailureReason({ InstructionError: [6, { Custom: 17 }] }, [], buyGas)).toBe(
      "relay:simulation_failed:instruction_6:Custom(17)",
    );
  });

  it("names a keeper that cannot pay the fee or the rent as the keeper's, not the taker's or the resolver's", () => {
    for (const err of [
      "InsufficientFundsForFee",
      "AccountNotFound",
      { InsufficientFundsForRent: { account_index: 3 } },
    ]) {
      expect(simulationFailureReason(err, [], buyGas)).toBe("keeper_insufficient_funds");
    }
  });
});

describe("shortTransactionError", () => {
  it("spells errors briefly", () => {
    expect(shortTransactionError("AlreadyProcessed")).toBe("AlreadyProcessed");
    expect(shortTransactionError({ InstructionError: [4, "InvalidArgument"] })).toBe("instruction_4:InvalidArgument");
    expect(shortTransactionError({ InstructionError: [5, { BorshIoError: "x" }] })).toBe("instruction_5:BorshIoError");
  });
});

describe("tokenBalanceChanges", () => {
  const balance = (accountIndex: number, amount: string, owner = "o") => ({
    accountIndex,
    mint: "m",
    owner,
    uiTokenAmount: { amount },
  });

  it("lists the accounts whose balance moved, created accounts from zero", () => {
    const changes = tokenBalanceChanges(
      [balance(1, "100"), balance(2, "5")],
      [balance(1, "40"), balance(2, "5"), balance(3, "60", "new")],
      ["k0", "k1", "k2", "k3"],
    );
    expect(changes).toEqual([
      { account: "k1", owner: "o", mint: "m", change: -60n },
      { account: "k3", owner: "new", mint: "m", change: 60n },
    ]);
  });
});
