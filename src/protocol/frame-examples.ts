import type { NodeFrame } from "./node-frames";
import type { RelayFrame } from "./relay-frames";

/**
 * One realistic frame of each type, per direction, as the AsyncAPI document shows them (docs/resolver-protocol.md,
 * "The AsyncAPI document"). Keyed by `type`, so a frame added to a union without an example fails to compile.
 * The auth and bid examples are the page's test vectors ("Test vectors"): their signatures are real.
 */

const corridor = "31337:0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const rfqId = "rfq_91c2a0e4d3b54f6f8a1c2e3d4b5a6978";
const quoteId = "q_0be4a1d2c3b4a5968778695a4b3c2d1e";
const node = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const taker = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const usdc = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const cngn = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const band = { base: "USD", quote: "NGN", mid: 1580.5, low: 1575, high: 1590, sources: 4, at: 1795000000000 };
const authSignature =
  "0x55ca26d90260937355e111c238c2db569285445cf0a6d4c77b4c11a16596e7046b1ad66b08cb9acf85395b664ea26e36f139c5d88d1e4546d5c6121b5082a6db1c";
const bidSignature =
  "0x2fe2b3d15d284d585f53850669e6342e910fc3dd2bc3f32ceb9b161daab7572052d4166c332f4af03e81aa276eb72e35ff5555ae01cdbb1b7da2c9fff4279e2d1b";
const solanaKey = "FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z";
const solanaCorridor = "103:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:So11111111111111111111111111111111111111112";
const solanaRfqId = "rfq_9c0e2b4d6f8a1c3e5a7c9e1b3d5f7a9c";
const solanaQuoteId = "q_41a3c5e7092b4d6f8a1c3e5a7c9e1b3d";
const [, usdcMint = "", wsolMint = ""] = solanaCorridor.split(":");

type ByType<F extends { type: string }> = { [T in F["type"]]: Extract<F, { type: T }>[] };

export const NODE_FRAME_EXAMPLES: ByType<NodeFrame> = {
  ping: [{ type: "ping" }],
  auth: [
    {
      type: "auth",
      address: node,
      signature: authSignature,
      name: "alpha",
      version: "1.0.0",
      region: "lagos",
      signerType: "keyfile",
      solana: {
        address: solanaKey,
        signature: "cpMH6cG1bgQMRZ9QYVqCundCg1uEnMRs2D2HmD1wsmP6Fc7YyebesAu7s8vKTnvAsMM1NFqoLBfQj4oPkoW89Lo",
      },
    },
  ],
  heartbeat: [
    {
      type: "heartbeat",
      state: "quoting",
      inventory: [{ chainId: 31337, token: usdc, balance: "5000000000", allowance: "5000000000" }],
    },
  ],
  bid: [
    { type: "bid", rfqId, outputAmount: "999500", signature: bidSignature, expiresAt: 1795000001500 },
    {
      type: "bid",
      rfqId: solanaRfqId,
      outputAmount: "1000000",
      signature: "3wq1MfixHXEtcrTZdeA2uR3or9Rt1XYQXuCJ9cw3fMzHyp7gVik1AUv1to21o5wGoUgbVA2fACZPYSsTsJHz9Jsy",
    },
  ],
  decline: [{ type: "decline", rfqId, reason: "insufficient_inventory" }],
  levels: [
    {
      type: "levels",
      chainId: 31337,
      sellToken: cngn,
      buyToken: usdc,
      // 1,580 cNGN a USDC up to 1,580,000 cNGN, then a little worse for more (base units, 6 decimals).
      levels: [
        { sellAmount: "158000000", outputAmount: "100000" },
        { sellAmount: "1580000000", outputAmount: "1000000" },
        { sellAmount: "15800000000", outputAmount: "9990000" },
      ],
      ttlMs: 10_000,
    },
  ],
  signed: [
    {
      type: "signed",
      rfqId: solanaRfqId,
      signature: "5Jq1TzM4u9hFWgJrY6c2pNnZbXa1d7eEwQfVtK3sLmRyC8oP2vHqGjU4iB6xD9kAe3nSwZtY7rL1fMbQ5cN8hKp",
    },
  ],
};

export const RELAY_FRAME_EXAMPLES: ByType<RelayFrame> = {
  pong: [{ type: "pong" }],
  challenge: [{ type: "challenge", nonce: "5a1c9e0b7d2f4a6c8e1b3d5f7a9c0e2b", corridor }],
  welcome: [{ type: "welcome", address: node, corridor, rfqWindowMs: 1500, band }],
  rfq: [
    {
      type: "rfq",
      rfqId,
      quoteId,
      chainId: 31337,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "1580000000",
      taker,
      recipient: taker,
      deadline: 1795000090,
      fee: { token: usdc, bps: 10 },
      gasFee: { token: usdc, amount: "50000" },
      band,
      toSign: {
        scheme: "eip712",
        domain: {
          name: "Relay Executor",
          version: "1",
          chainId: 31337,
          verifyingContract: "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
        },
        types: {
          RfqFill: [
            { name: "quoteId", type: "bytes32" },
            { name: "taker", type: "address" },
            { name: "sellToken", type: "address" },
            { name: "sellAmount", type: "uint256" },
            { name: "buyToken", type: "address" },
            { name: "outputAmount", type: "uint256" },
            { name: "deadline", type: "uint256" },
          ],
        },
        primaryType: "RfqFill",
        message: {
          quoteId: "0x0be4a1d2c3b4a5968778695a4b3c2d1e00000000000000000000000000000000",
          taker,
          sellToken: cngn,
          sellAmount: "1580000000",
          buyToken: usdc,
          outputAmount: null,
          deadline: "1795000090",
        },
      },
    },
    {
      type: "rfq",
      rfqId: solanaRfqId,
      quoteId: solanaQuoteId,
      chainId: 103,
      sellToken: wsolMint,
      buyToken: usdcMint,
      sellAmount: "6250000",
      taker: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
      recipient: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
      deadline: 1795000090,
      fee: { token: usdcMint, bps: 10 },
      gasFee: { token: usdcMint, amount: "5000" },
      band: null,
      toSign: {
        scheme: "ed25519",
        text: `relay-solana-bid|${solanaCorridor}|${solanaRfqId}|${solanaQuoteId}|{outputAmount}|1795000090`,
      },
    },
  ],
  result: [{ type: "result", rfqId, won: true, rank: 1 }],
  band: [{ type: "band", ...band }],
  execution: [
    {
      type: "execution",
      quoteId,
      status: "submitted",
      txHash: "0x8f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b",
    },
  ],
  sign: [
    {
      type: "sign",
      rfqId: solanaRfqId,
      transaction: "AwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    },
  ],
  error: [
    { type: "error", code: "below_fees", message: "the output does not cover the fees", rfqId },
    { type: "error", code: "bad_frame", message: "the first frame must be auth" },
  ],
  demoted: [
    {
      type: "demoted",
      until: "2026-11-27T10:00:00.000Z",
      reason: "won q_0be4a1d2c3b4a5968778695a4b3c2d1e and did not sign in 500 ms",
    },
  ],
};
