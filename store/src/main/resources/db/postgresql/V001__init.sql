-- Clawgate store, schema version 1 (PostgreSQL).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- A session is its key tuple (SPEC HI-1). '' stands for "no thread" / "no sender", so a
-- plain UNIQUE constraint covers the whole tuple (NULLs would never collide).
CREATE TABLE sessions (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel       TEXT   NOT NULL,
    account       TEXT   NOT NULL,
    chat_type     TEXT   NOT NULL,
    reply_target  TEXT   NOT NULL,
    thread_id     TEXT   NOT NULL DEFAULT '',
    sender        TEXT   NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL,
    last_activity BIGINT NOT NULL,
    CONSTRAINT sessions_key UNIQUE (channel, account, chat_type, reply_target, thread_id, sender)
);

CREATE TABLE inbox (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedupe_key   TEXT,
    channel      TEXT    NOT NULL,
    account      TEXT    NOT NULL,
    message_id   TEXT,
    sender       TEXT    NOT NULL,
    reply_target TEXT    NOT NULL,
    thread_id    TEXT,
    scope_id     TEXT,
    chat_type    TEXT    NOT NULL,
    session_id   BIGINT  NOT NULL REFERENCES sessions (id),
    state        TEXT    NOT NULL,
    detail       TEXT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    platform_ts  BIGINT  NOT NULL,
    recorded_at  BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    payload      TEXT    NOT NULL
);

-- Serves both the unfinished-inbox scan (state IN (...) ORDER BY id) and the per-state counts.
CREATE INDEX inbox_state_id ON inbox (state, id);

-- inbox_id links a turn's messages to their inbox record; no foreign key, so pruning old
-- inbox records can never take history with it.
CREATE TABLE transcript (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    role       TEXT   NOT NULL,
    content    TEXT   NOT NULL,
    inbox_id   BIGINT,
    created_at BIGINT NOT NULL,
    CONSTRAINT transcript_turn UNIQUE (session_id, inbox_id, role)
);

CREATE INDEX transcript_session_id ON transcript (session_id, id);

CREATE TABLE dedupe (
    key     TEXT   PRIMARY KEY,
    seen_at BIGINT NOT NULL
);

CREATE INDEX dedupe_seen_at ON dedupe (seen_at);

CREATE TABLE session_settings (
    session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    name       TEXT   NOT NULL,
    value      TEXT   NOT NULL,
    PRIMARY KEY (session_id, name)
);
