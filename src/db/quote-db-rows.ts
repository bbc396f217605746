import type { Offer, Quote, QuoteStatus, TimelineEntry } from "../schemas";
import type { FillKind } from "../types";

/** A quote's rows in D1, as its statements read them (migrations/). */

export interface QuoteDbRow {
  quote_id: string;
  rfq_id: string;
  chain_id: number;
  status: QuoteStatus;
  final: number;
  taker: string;
  recipient: string;
  sell_token: string;
  buy_token: string;
  sell_amount: string;
  received: string;
  /** Null on a quote stored before the taker signed a minimum: it was `received`. */
  min_received: string | null;
  slippage_bps: number;
  fee_token: string;
  fee_amount: string;
  gas_fee_token: string;
  gas_fee_amount: string;
  gas_fee_source: Quote["gasFee"]["source"];
  fill_kind: FillKind;
  native_price: number | null;
  taker_pays: string;
  proceeds: string;
  offers_hash: string;
  band: string | null;
  quoted_at: string;
  expires_at: string;
  resolver: string | null;
  resolver_name: string | null;
  resolver_solana_address: string | null;
  replies: string;
  steering: string | null;
  settlement: string | null;
  signing: string | null;
  /** Set while the keeper holds a claim on the quote (src/db/settlement-steps.ts). */
  claimed_at: string | null;
}

export interface OfferDbRow {
  resolver: string;
  name: string;
  output_amount: string;
  rank: number;
  status: Offer["status"];
  latency_ms: number;
  won: number;
  /** NULL for a bid of the whole. */
  sell_amount: string | null;
}

export interface TimelineDbRow {
  at: string;
  event: TimelineEntry["event"];
  detail: string | null;
}

export interface QuoteExecutionDbRow {
  quote_id: string;
  execution_id: string;
  status: Quote["executions"][number]["status"];
  reason: string | null;
  tx_hash: string | null;
  submitter: string | null;
  gas_used: string | null;
  created_at: string;
  updated_at: string;
}

export interface FillDbRow {
  quote_id: string;
  order_hash: string;
  resolver: string;
  filler: string;
  log_index: number;
}
