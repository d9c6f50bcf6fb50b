-- Clawgate store, schema version 7: which parts of a reply quote the inbound message (SPEC OUT-3).
-- reply_to: off, first or all, decided by the turn from channels.<ch>.reply_to_mode; a replay after
-- a restart threads the reply's parts as the turn would have. Entries written before: all, as they were sent.
ALTER TABLE outbox ADD COLUMN reply_to TEXT NOT NULL DEFAULT 'all';
