-- What a fill costs (docs/api.md, "The gas fee"; docs/settlement.md, "The keeper's books").
--   quotes.fill_kind       rfq or limit: whose settled fills price the next ones' gas
--   quotes.gas_fee_source  priced (from the chain and the oracle) or fallback (gasFee.fixed)
--   quotes.native_price    whole charged tokens per whole native unit the gas fee was priced at; NULL for the fallback
--   executions.keeper_spent what the keeper paid in native units (wei: gas used × effective gas price;
--                           lamports: the fee and the rent of the accounts created); NULL until settled
ALTER TABLE quotes ADD COLUMN fill_kind TEXT NOT NULL DEFAULT 'rfq' CHECK (fill_kind IN ('rfq', 'limit'));
ALTER TABLE quotes ADD COLUMN gas_fee_source TEXT NOT NULL DEFAULT 'fallback' CHECK (gas_fee_source IN ('priced', 'fallback'));
ALTER TABLE quotes ADD COLUMN native_price REAL;
ALTER TABLE executions ADD COLUMN keeper_spent TEXT;

-- The last settled fills first, for the median gas of a chain's recent fills and the keeper's margin.
CREATE INDEX executions_settled ON executions (updated_at) WHERE status = 'settled';
