-- Clawgate store, schema version 5 (SQLite): outbox retries, receipts and agent sends (SPEC OUT-7, OUT-8, AG-5).
-- One statement per ';' at the end of a line; times are epoch milliseconds.

-- The outbox is rebuilt, since SQLite cannot change a table's unique key in place:
-- next_attempt_at: when a pending entry may be tried again (its creation time until a send fails);
-- receipts: a JSON array, one receipt per payload the platform took; a retry resumes after them;
-- send_key: '' for a turn's reply; for a message_send of the agent, a key of its target and text,
-- so a turn re-run after a crash that sends the same message again adds no second entry.
-- UNIQUE (turn_id, kind, send_key): one final reply per turn (OUT-12), one entry per agent send.
CREATE TABLE outbox_v5 (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id                INTEGER NOT NULL,
    kind                   TEXT    NOT NULL,
    send_key               TEXT    NOT NULL DEFAULT '',
    channel                TEXT    NOT NULL,
    account                TEXT    NOT NULL,
    reply_target           TEXT    NOT NULL,
    thread_id              TEXT,
    in_reply_to_message_id TEXT,
    text                   TEXT    NOT NULL,
    state                  TEXT    NOT NULL,
    attempts               INTEGER NOT NULL DEFAULT 0,
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL,
    next_attempt_at        INTEGER NOT NULL,
    receipt_id             TEXT,
    receipts               TEXT,
    detail                 TEXT,
    UNIQUE (turn_id, kind, send_key)
) STRICT;

INSERT INTO outbox_v5 (id, turn_id, kind, channel, account, reply_target, thread_id, in_reply_to_message_id, text, state, attempts, created_at, updated_at, next_attempt_at, receipt_id, detail) SELECT id, turn_id, kind, channel, account, reply_target, thread_id, in_reply_to_message_id, text, state, attempts, created_at, updated_at, created_at, receipt_id, detail FROM outbox;

DROP TABLE outbox;

ALTER TABLE outbox_v5 RENAME TO outbox;

-- Serves the recovery scans (state IN (...) ORDER BY id) and the per-state counts.
CREATE INDEX outbox_state_id ON outbox (state, id);

-- Serves the retry scan: pending entries due by now, oldest first.
CREATE INDEX outbox_due ON outbox (state, next_attempt_at, id);

-- The receipts of a turn's final reply, kept with its assistant message (SPEC OUT-8).
ALTER TABLE transcript ADD COLUMN receipt TEXT;
