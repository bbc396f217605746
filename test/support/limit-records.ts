import { newId } from "../../src/ids";
import type { LimitOrderRow } from "../../src/schemas/limit-order";

const TAKER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const PERMIT2 = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

let nonces = 0n;

/** A limit order as placing stores it, open for a day, for tests that drive the D1 functions. */
export function sampleLimitOrder(overrides: Partial<LimitOrderRow> = {}): LimitOrderRow {
  const now = Date.now();
  const nonce = (1n << 128n) + ++nonces;
  const at = new Date(now).toISOString();
  return {
    limitOrderId: newId("lo"),
    chainId: 31337,
    corridor: `31337:${CNGN.toLowerCase()}:${USDC.toLowerCase()}`,
    status: "open",
    taker: TAKER,
    recipient: TAKER,
    sellToken: CNGN,
    buyToken: USDC,
    sellAmount: "158000000000",
    limitAmount: "100000000",
    minOut: "99750000",
    feeToken: USDC,
    feeBps: 10,
    feeAtLimit: "100000",
    gasFeeToken: USDC,
    gasFeeNow: "50000",
    maxGasFee: "150000",
    permitToken: CNGN,
    permitAmount: "158000000000",
    nonce: nonce.toString(),
    deadline: String(Math.floor(now / 1000) + 86_400),
    typedData: { primaryType: "PermitWitnessTransferFrom" },
    signature: `0x${"11".repeat(65)}`,
    erc2612: null,
    revoke: { permit2: PERMIT2, to: PERMIT2, wordPos: (nonce >> 8n).toString(), mask: "2", data: "0x" },
    expiresAt: new Date(now + 86_400_000).toISOString(),
    quoteId: null,
    attempts: 0,
    lastError: null,
    lastCheckedAt: null,
    bestReceived: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
