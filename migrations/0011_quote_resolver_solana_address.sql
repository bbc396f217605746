-- A Solana quote names the Solana key that signed for its resolver (docs/api.md, "Quote"):
--   quotes.resolver_solana_address  the winner's proved base58 Solana key on a Solana quote; NULL on EVM
ALTER TABLE quotes ADD COLUMN resolver_solana_address TEXT;
