-- Clawgate store, schema version 5 (PostgreSQL): outbox retries, receipts and agent sends (SPEC OUT-7, OUT-8, AG-5).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- next_attempt_at: when a pending entry may be tried again (its creation time until a send fails).
-- receipts: a JSON array, one receipt per payload the platform took; a retry resumes after them.
-- send_key: '' for a turn's reply; for a message_send of the agent, a key of its target and text,
-- so a turn re-run after a crash that sends the same message again adds no second entry.
ALTER TABLE outbox ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN receipts TEXT;
ALTER TABLE outbox ADD COLUMN send_key TEXT NOT NULL DEFAULT '';
UPDATE outbox SET next_attempt_at = created_at;

-- One final reply per turn (OUT-12), one entry per agent send.
ALTER TABLE outbox DROP CONSTRAINT outbox_turn_kind, ADD CONSTRAINT outbox_turn_kind_key UNIQUE (turn_id, kind, send_key);

-- Serves the retry scan: pending entries due by now, oldest first.
CREATE INDEX outbox_due ON outbox (state, next_attempt_at, id);

-- The receipts of a turn's final reply, kept with its assistant message (SPEC OUT-8).
ALTER TABLE transcript ADD COLUMN receipt TEXT;
