-- Clawgate store, schema version 2 (PostgreSQL): pairing codes (SPEC IN-5).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- status is 'pending', 'approved', 'rejected' or 'expired'. A pending row past expires_at is
-- expired whatever its status says; it is rewritten to 'expired' only when its sender asks again.
-- code is the primary key: a code is never handed out twice, even after it expired.
CREATE TABLE pairings (
    code       TEXT   PRIMARY KEY,
    channel    TEXT   NOT NULL,
    account    TEXT   NOT NULL,
    sender     TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    decided_at BIGINT
);

-- One pending code per sender, so two racing messages of one sender can never get two codes
-- (not even from two nodes); it also serves the per-account count of pending codes.
CREATE UNIQUE INDEX pairings_one_pending ON pairings (channel, account, sender) WHERE status = 'pending';

CREATE INDEX pairings_created ON pairings (created_at, code);

-- Senders the owner approved: the allowlist's second half (SPEC IN-5).
CREATE TABLE paired_senders (
    channel     TEXT   NOT NULL,
    account     TEXT   NOT NULL,
    sender      TEXT   NOT NULL,
    code        TEXT   NOT NULL,
    approved_at BIGINT NOT NULL,
    PRIMARY KEY (channel, account, sender)
);
