-- Ended quotes leave D1 after the configuration's `retention` (docs/operations.md, "Retention"): the keeper's
-- hourly job finds the oldest of each kind by these indexes, in the order they ended (`updated_at`, their
-- last move), and deletes them with their rows in other tables a batch at a time.
--   never submitted: no fill was ever started (a claim precedes every broadcast, migrations/0003), and the
--                    quote expired, was cancelled, or failed its simulation; kept `unfilledDays`
--   submitted:       a fill was started (claimed): settled, failed on chain, or expired while it was on
--                    its way; kept `filledDays` with its executions and fills
-- The retention job's statements spell each WHERE exactly as here, so that SQLite uses the partial index.
CREATE INDEX quotes_unsubmitted_ended ON quotes (updated_at, quote_id)
  WHERE claimed_at IS NULL AND status IN ('expired', 'cancelled', 'failed');
CREATE INDEX quotes_submitted_ended ON quotes (updated_at, quote_id)
  WHERE claimed_at IS NOT NULL AND status IN ('settled', 'failed', 'expired');
