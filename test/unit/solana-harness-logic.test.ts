import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BlockhashWindow, lastValidBlockHeight } from "../../scripts/lib/solana-harness/blockhashes";
import { confirmationOf, slotAtCommitment, visibleAt } from "../../scripts/lib/solana-harness/commitment";
import { COMPUTE_BUDGET_PROGRAM, computeBudget, transactionFee } from "../../scripts/lib/solana-harness/fees";
import { handleJsonRpc, RpcError } from "../../scripts/lib/solana-harness/jsonrpc";
import { prioritizationFeeOf } from "../../scripts/lib/solana-harness/ledger";
import { decimalString, uiTokenAmount } from "../../scripts/lib/solana-harness/token-state";
import { versionField } from "../../scripts/lib/solana-harness/transaction-json";
import { transactionErrorMessage } from "../../scripts/lib/solana-harness/tx-errors";

describe("blockhash window", () => {
  it("keeps a blockhash valid for 150 slots after its own, then forgets it", () => {
    const window = new BlockhashWindow();
    for (let slot = 0; slot <= 400; slot++) window.record(slot, `hash${slot}`);
    expect(window.isValid("hash250", 400)).toBe(true);
    expect(window.isValid("hash249", 400)).toBe(false);
    expect(window.slotOf("hash249")).toBeUndefined();
    expect(window.blockhashAt(368)).toBe("hash368");
    expect(window.isValid("unknown", 400)).toBe(false);
    expect(lastValidBlockHeight(250)).toBe(400);
  });
});

describe("commitment", () => {
  it("is confirmed at once and finalized 32 slots later", () => {
    expect(confirmationOf(100, 100)).toEqual({ confirmations: 0, confirmationStatus: "confirmed" });
    expect(confirmationOf(100, 131)).toEqual({ confirmations: 31, confirmationStatus: "confirmed" });
    expect(confirmationOf(100, 132)).toEqual({ confirmations: null, confirmationStatus: "finalized" });
    expect(visibleAt("finalized", 100, 131)).toBe(false);
    expect(visibleAt("confirmed", 100, 100)).toBe(true);
    expect(slotAtCommitment("finalized", 40)).toBe(8);
    expect(slotAtCommitment("finalized", 10)).toBe(0);
    expect(slotAtCommitment("processed", 40)).toBe(40);
  });
});

describe("fees", () => {
  const limit = (units: number) => {
    const data = new Uint8Array(5);
    data[0] = 2;
    new DataView(data.buffer).setUint32(1, units, true);
    return { programId: COMPUTE_BUDGET_PROGRAM, data };
  };
  const price = (micro: bigint) => {
    const data = new Uint8Array(9);
    data[0] = 3;
    new DataView(data.buffer).setBigUint64(1, micro, true);
    return { programId: COMPUTE_BUDGET_PROGRAM, data };
  };
  const transfer = { programId: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", data: new Uint8Array([12]) };

  it("charges 5,000 lamports a signature and the priority fee rounded up", () => {
    expect(transactionFee(1, [transfer])).toBe(5_000n);
    expect(transactionFee(3, [limit(200_000), price(1_000n), transfer])).toBe(15_200n);
    expect(transactionFee(1, [limit(1), price(1n), transfer])).toBe(5_001n);
  });

  it("defaults the limit per instruction (3,000 for builtins, 200,000 otherwise) and caps it", () => {
    expect(computeBudget([price(1n), transfer])).toEqual({ unitLimit: 203_000, unitPrice: 1n });
    expect(computeBudget([limit(5_000_000)]).unitLimit).toBe(1_400_000);
  });

  it("counts the signatures a precompile instruction checks", () => {
    const ed25519 = { programId: "Ed25519SigVerify111111111111111111111111111", data: new Uint8Array([2, 0]) };
    expect(transactionFee(1, [ed25519])).toBe(15_000n);
  });
});

describe("transaction errors", () => {
  it("print as validators print them", () => {
    expect(transactionErrorMessage("BlockhashNotFound")).toBe("Blockhash not found");
    expect(transactionErrorMessage("AlreadyProcessed")).toBe("This transaction has already been processed");
    expect(transactionErrorMessage({ InstructionError: [2, { Custom: 17 }] })).toBe(
      "Error processing Instruction 2: custom program error: 0x11",
    );
    expect(transactionErrorMessage({ InstructionError: [0, "InsufficientFunds"] })).toBe(
      "Error processing Instruction 0: insufficient funds for instruction",
    );
    expect(transactionErrorMessage("WouldExceedMaxBlockCostLimit")).toBe("WouldExceedMaxBlockCostLimit");
  });
});

describe("token amounts", () => {
  it("keep base units exact and trim the decimal form", () => {
    expect(decimalString(1_500_000n, 6)).toBe("1.5");
    expect(decimalString(1n, 6)).toBe("0.000001");
    expect(decimalString(0n, 6)).toBe("0");
    expect(decimalString(42n, 0)).toBe("42");
    expect(uiTokenAmount(1_000_000_000_000n, 6)).toEqual({
      amount: "1000000000000",
      decimals: 6,
      uiAmount: 1_000_000,
      uiAmountString: "1000000",
    });
  });
});

describe("prioritization fees", () => {
  it("take the slot's lowest price, raised to an account's lowest when higher", () => {
    const fees = { slot: 7, min: 10n, byAccount: new Map([["hot", 500n]]) };
    expect(prioritizationFeeOf(fees, [])).toBe(10n);
    expect(prioritizationFeeOf(fees, ["hot", "cold"])).toBe(500n);
    expect(prioritizationFeeOf(undefined, ["hot"])).toBe(0n);
  });
});

describe("transaction versions", () => {
  it("answer a v0 transaction only to a client that supports it", () => {
    expect(versionField("legacy", undefined)).toBeUndefined();
    expect(versionField("legacy", 0)).toBe("legacy");
    expect(versionField(0, 0)).toBe(0);
    expect(() => versionField(0, undefined)).toThrow(RpcError);
  });
});

describe("JSON-RPC framing", () => {
  const dispatch = (method: string, params: unknown) => {
    if (method === "echo") return params;
    if (method === "fail") throw new RpcError(-32002, "failed", { logs: ["x"] });
    throw new Error("boom");
  };
  const call = (body: unknown) => {
    const out = handleJsonRpc(typeof body === "string" ? body : JSON.stringify(body), dispatch);
    return out === null ? null : JSON.parse(out);
  };

  it("answers one request, a batch in order, and nothing to notifications", () => {
    expect(call({ jsonrpc: "2.0", id: 7, method: "echo", params: [1] })).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: [1],
    });
    expect(call({ jsonrpc: "2.0", method: "echo" })).toBeNull();
    expect(
      call([
        { jsonrpc: "2.0", id: 1, method: "fail" },
        { jsonrpc: "2.0", method: "echo" },
        { jsonrpc: "2.0", id: 2, method: "other" },
      ]),
    ).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32002, message: "failed", data: { logs: ["x"] } } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom" } },
    ]);
  });

  it("refuses what is not a request", () => {
    expect(call("{")).toMatchObject({ id: null, error: { code: -32700 } });
    expect(call([])).toMatchObject({ error: { code: -32600 } });
    expect(call([1])).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } }]);
    expect(call({ jsonrpc: "1.0", id: 1, method: "echo" })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(call({ jsonrpc: "2.0", id: 1, method: "echo", params: 3 })).toMatchObject({ error: { code: -32600 } });
  });
});

describe("the Worker", () => {
  it("never imports the harness or LiteSVM", () => {
    const files = ["src", "durable-objects"].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => /\.tsx?$/.test(f))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) =>
      /from\s+["'](litesvm|[^"']*solana-harness[^"']*)["']/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
