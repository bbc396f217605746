-- Quotes and their lifecycle. Amounts are TEXT decimal strings in base units; timestamps are
-- ISO 8601 UTC strings with milliseconds, so they order correctly as text.

CREATE TABLE quotes (
  quote_id        TEXT PRIMARY KEY,
  rfq_id          TEXT NOT NULL UNIQUE,
  chain_id        INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('quoted','signed','submitted','settled','failed','expired','cancelled')),
  final           INTEGER NOT NULL DEFAULT 0,
  taker           TEXT NOT NULL,
  recipient       TEXT NOT NULL,
  sell_token      TEXT NOT NULL,
  buy_token       TEXT NOT NULL,
  sell_amount     TEXT NOT NULL,
  received        TEXT NOT NULL,
  fee_token       TEXT NOT NULL,
  fee_amount      TEXT NOT NULL,
  gas_fee_token   TEXT NOT NULL,
  gas_fee_amount  TEXT NOT NULL,
  taker_pays      TEXT NOT NULL,
  proceeds        TEXT NOT NULL,
  offers_hash     TEXT NOT NULL,
  band            TEXT,            -- JSON band at quote time, or NULL
  quoted_at       TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  resolver        TEXT,            -- winner's address
  resolver_name   TEXT,
  replies         TEXT NOT NULL,   -- JSON {valid, rejected, declined, noReply, late}
  steering        TEXT,            -- JSON, or NULL
  settlement      TEXT,            -- JSON, set by the indexer
  signing         TEXT,            -- JSON: what the taker signs (typed data or transaction) and its order terms
  updated_at      TEXT NOT NULL
);
CREATE INDEX quotes_taker ON quotes (taker, quoted_at);
CREATE INDEX quotes_open_expiry ON quotes (expires_at) WHERE status IN ('quoted','signed');

CREATE TABLE offers (
  quote_id       TEXT NOT NULL REFERENCES quotes (quote_id),
  rank           INTEGER NOT NULL,
  resolver       TEXT NOT NULL,
  name           TEXT NOT NULL,
  output_amount  TEXT NOT NULL,
  status         TEXT NOT NULL,
  latency_ms     INTEGER NOT NULL,
  won            INTEGER NOT NULL DEFAULT 0,
  signature      TEXT,
  PRIMARY KEY (quote_id, rank)
);

CREATE TABLE timeline_events (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  quote_id  TEXT NOT NULL REFERENCES quotes (quote_id),
  at        TEXT NOT NULL,
  event     TEXT NOT NULL CHECK (event IN ('requested','quoted','signed','submitted','requote','failed','settled','final','expired')),
  detail    TEXT             -- JSON object, or NULL
);
CREATE INDEX timeline_by_quote ON timeline_events (quote_id, id);

CREATE TABLE executions (
  execution_id  TEXT PRIMARY KEY,
  quote_id      TEXT NOT NULL REFERENCES quotes (quote_id),
  status        TEXT NOT NULL CHECK (status IN ('submitted','settled','failed','requote')),
  reason        TEXT,
  tx_hash       TEXT,
  submitter     TEXT,
  gas_used      TEXT,
  resolver      TEXT,
  proceeds      TEXT,
  taker_pays    TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX executions_by_quote ON executions (quote_id, created_at);
CREATE INDEX executions_pending ON executions (status) WHERE status = 'submitted';

CREATE TABLE fills (
  quote_id    TEXT NOT NULL REFERENCES quotes (quote_id),
  tx_hash     TEXT NOT NULL,
  log_index   INTEGER NOT NULL,
  order_hash  TEXT NOT NULL,
  resolver    TEXT NOT NULL,
  filler      TEXT NOT NULL,
  PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX fills_by_quote ON fills (quote_id);

-- Idempotency keys of POST /v1/executions: the first execution a key produced.
CREATE TABLE idempotency_keys (
  key           TEXT PRIMARY KEY,
  execution_id  TEXT NOT NULL,
  created_at    TEXT NOT NULL
);

-- The resolver directory. Heartbeat-driven fields (state, last_seen) are written at most once a
-- minute per resolver, not on every heartbeat.
CREATE TABLE resolvers (
  address           TEXT PRIMARY KEY,   -- lowercase 0x address
  name              TEXT NOT NULL,
  region            TEXT,
  signer_type       TEXT,
  version           TEXT,
  registered        INTEGER NOT NULL DEFAULT 0,
  registered_at     TEXT,
  demoted_until     TEXT,
  demotion_reason   TEXT,
  demotions         INTEGER NOT NULL DEFAULT 0,
  state             TEXT,
  degraded          TEXT,
  solana_address    TEXT,
  corridors         TEXT NOT NULL DEFAULT '[]',  -- JSON [{chainId, baseToken, quoteToken}]
  first_seen        TEXT,
  last_seen         TEXT,
  updated_at        TEXT NOT NULL
);

CREATE TABLE limit_orders (
  limit_order_id   TEXT PRIMARY KEY,
  chain_id         INTEGER NOT NULL,
  taker            TEXT NOT NULL,
  recipient        TEXT NOT NULL,
  sell_token       TEXT NOT NULL,
  buy_token        TEXT NOT NULL,
  sell_amount      TEXT NOT NULL,
  limit_amount     TEXT NOT NULL,
  min_out          TEXT NOT NULL,
  gas_fee_token    TEXT NOT NULL,
  max_gas_fee      TEXT NOT NULL,
  permit_token     TEXT NOT NULL,
  permit_amount    TEXT NOT NULL,
  nonce            TEXT NOT NULL,
  deadline         TEXT NOT NULL,
  signature        TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('open','filling','filled','cancelled','expired')),
  expires_at       TEXT NOT NULL,
  quote_id         TEXT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  last_error       TEXT,
  last_checked_at  TEXT,
  best_received    TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (chain_id, taker, nonce)
);
CREATE INDEX limit_orders_open ON limit_orders (status, expires_at);
CREATE INDEX limit_orders_by_taker ON limit_orders (taker, status);
