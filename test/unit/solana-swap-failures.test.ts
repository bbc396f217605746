import { describe, expect, it } from "vitest";
import type { SwapCreation } from "../../src/chains/solana/swap-creations";
import {
  frozenSuspects,
  givenAwaySuspects,
  shortTransactionError,
  simulationFailureReason,
} from "../../src/chains/solana/swap-failures";
import { tokenBalanceChanges } from "../../src/chains/solana/swap-receipt";
import type { SwapTransfer } from "../../src/chains/solana/swap-transfers";

const leg = (index: number, from: string, destination = `dest-${index}`): SwapTransfer => ({
  index,
  from,
  source: `${from}-account-${index}`,
  destination,
  mint: "mint",
  amount: 1n,
});
/** The creation of a leg's destination at instruction `index`, the account of `owner`, paid by `payer`. */
const creation = (index: number, owner: string, account: string, payer = "keeper"): SwapCreation => ({
  index,
  account,
  payer,
  owner,
  mint: "mint",
});
/**
 * A swap that creates its four legs' destinations at instructions 2–5 (the resolver's sale account, paid by
 * the resolver, then the recipient's, the treasury's and the keeper's, paid by the keeper) and moves them at
 * 6–9: proceeds (taker), received, fee and gas fee (resolver).
 */
const buyGas = {
  transfers: [leg(6, "taker"), leg(7, "resolver"), leg(8, "resolver"), leg(9, "resolver")],
  creations: [
    creation(2, "resolver", "dest-6", "resolver"),
    creation(3, "recipient", "dest-7"),
    creation(4, "treasury", "dest-8"),
    creation(5, "keeper", "dest-9"),
  ],
};
/** The gas fee charged in the sell token: the last leg is the taker's. */
const sellGas = { ...buyGas, transfers: [leg(6, "taker"), leg(7, "resolver"), leg(8, "resolver"), leg(9, "taker")] };
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
    expect(simulationFailureReason(insufficient(1), [], buyGas)).toBe(
      "relay:simulation_failed:instruction_1:Custom(1)",
    );
    expect(simulationFailureReason({ InstructionError: [6, { Custom: 17 }] }, [], buyGas)).toBe(
      "relay:simulation_failed:instruction_6:Custom(17)",
    );
  });

  it("names the party of a frozen account: its payer's for a source, its owner's role for a destination", () => {
    const frozenAt = (index: number) => ({ InstructionError: [index, { Custom: 17 }] });
    const reason = (index: number, ...frozen: string[]) =>
      simulationFailureReason(frozenAt(index), ["Program log: Error: Account is frozen"], buyGas, {
        frozen: new Set(frozen),
      });
    // The resolver's own accounts: the source of its output and fees, the destination of the sale.
    expect(reason(7, "resolver-account-7")).toBe("resolver:transfer_failed");
    expect(reason(9, "resolver-account-9")).toBe("resolver:transfer_failed");
    expect(reason(6, "dest-6")).toBe("resolver:transfer_failed");
    // The taker's: its source, and the recipient it named.
    expect(reason(6, "taker-account-6")).toBe("taker:transfer_failed");
    expect(reason(7, "dest-7")).toBe("taker:recipient_refused");
    // The treasury's or the keeper's account for a fee: the relay's.
    expect(reason(8, "dest-8")).toBe("relay:fee_transfer_failed");
    // Frozen nowhere the chain shows now: nobody named.
    expect(reason(7)).toBe("relay:simulation_failed:instruction_7:Custom(17)");
  });

  it("asks the chain about the failed leg's two accounts only when the leg was refused as frozen", () => {
    expect(frozenSuspects({ InstructionError: [7, { Custom: 17 }] }, buyGas)).toEqual(["resolver-account-7", "dest-7"]);
    expect(frozenSuspects(insufficient(7), buyGas)).toEqual([]);
    expect(frozenSuspects({ InstructionError: [2, { Custom: 17 }] }, buyGas)).toEqual([]);
    expect(frozenSuspects("BlockhashNotFound", buyGas)).toEqual([]);
  });

  it("names the owner of a destination the swap could not create because another key owns it now", () => {
    const invalidOwner = (index: number) => ({ InstructionError: [index, { Custom: 0 }] });
    const reason = (index: number, ...givenAway: string[]) =>
      simulationFailureReason(invalidOwner(index), [], buyGas, { givenAway: new Set(givenAway) });
    // The resolver's account its sale is paid into: the resolver's, struck as for a frozen one.
    expect(reason(2, "dest-6")).toBe("resolver:transfer_failed");
    // The recipient's the taker named: the taker's.
    expect(reason(3, "dest-7")).toBe("taker:recipient_refused");
    // The treasury's or the keeper's: the relay's.
    expect(reason(4, "dest-8")).toBe("relay:fee_transfer_failed");
    expect(reason(5, "dest-9")).toBe("relay:fee_transfer_failed");
    // The chain shows the account its owner's: the code names nobody.
    expect(reason(2)).toBe("relay:simulation_failed:instruction_2:Custom(0)");
    // Another error of a creation the keeper pays for (short of a rent in the system program's call) names nobody.
    expect(
      simulationFailureReason({ InstructionError: [3, { Custom: 1 }] }, [], buyGas, { givenAway: new Set(["dest-7"]) }),
    ).toBe("relay:simulation_failed:instruction_3:Custom(1)");
    // A recipient that is the resolver's own key: its account is the resolver's.
    const toResolver = { ...buyGas, creations: [creation(2, "resolver", "dest-6"), creation(3, "resolver", "dest-7")] };
    expect(simulationFailureReason(invalidOwner(3), [], toResolver, { givenAway: new Set(["dest-7"]) })).toBe(
      "resolver:transfer_failed",
    );
  });

  it("blames the resolver short of the rent of its own account, which it closed after its inventory read", () => {
    const shortOfRent = (index: number) => ({ InstructionError: [index, { Custom: 1 }] });
    // The creation the resolver pays for: the system program refused its payer, the resolver.
    expect(simulationFailureReason(shortOfRent(2), [], buyGas)).toBe("resolver:insufficient_balance");
    expect(simulationFailureReason(shortOfRent(2), [], sellGas)).toBe("resolver:insufficient_balance");
    // The same code at a creation the keeper pays for is not the resolver's.
    for (const index of [3, 4, 5]) {
      expect(simulationFailureReason(shortOfRent(index), [], buyGas)).toBe(
        `relay:simulation_failed:instruction_${index}:Custom(1)`,
      );
    }
    // A swap built before the resolver paid for its own account: the keeper paid, the resolver is not blamed.
    const keeperPaid = { ...buyGas, creations: [creation(2, "resolver", "dest-6"), ...buyGas.creations.slice(1)] };
    expect(simulationFailureReason(shortOfRent(2), [], keeperPaid)).toBe(
      "relay:simulation_failed:instruction_2:Custom(1)",
    );
  });

  it("asks the chain about a creation's account only when it was refused as another key's", () => {
    expect(givenAwaySuspects({ InstructionError: [3, { Custom: 0 }] }, buyGas)).toEqual([buyGas.creations[1]]);
    expect(givenAwaySuspects({ InstructionError: [3, { Custom: 1 }] }, buyGas)).toEqual([]);
    // Custom(0) at a transfer is SPL Token's NotRentExempt, no creation.
    expect(givenAwaySuspects({ InstructionError: [6, { Custom: 0 }] }, buyGas)).toEqual([]);
    expect(givenAwaySuspects("BlockhashNotFound", buyGas)).toEqual([]);
  });

  it("blames the payer of a leg whose source's owner is no longer the key that signed it", () => {
    const ownerMismatch = (index: number) => ({ InstructionError: [index, { Custom: 4 }] });
    expect(simulationFailureReason(ownerMismatch(7), [], buyGas)).toBe("resolver:transfer_failed");
    expect(simulationFailureReason(ownerMismatch(6), [], buyGas)).toBe("taker:transfer_failed");
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
