-- Clawgate store, schema version 6 (PostgreSQL): long-term memory (SPEC ME-1..ME-7).
-- One statement per ';' at the end of a line; times are epoch milliseconds, as in SQLite.

-- One memory; the columns are SQLite's (see its V006). search is the full-text index of terms,
-- which the store fills with the words Relevance indexes, so both dialects match the same terms.
CREATE TABLE memories (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scope        TEXT    NOT NULL,
    mkey         TEXT    NOT NULL,
    content      TEXT    NOT NULL,
    category     TEXT    NOT NULL,
    content_hash TEXT    NOT NULL,
    terms        TEXT    NOT NULL,
    term_count   INTEGER NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    search       tsvector GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED,
    CONSTRAINT memories_scope_key UNIQUE (scope, mkey),
    CONSTRAINT memories_scope_hash UNIQUE (scope, content_hash)
);

CREATE INDEX memories_scope_updated ON memories (scope, updated_at);

CREATE INDEX memories_category_updated ON memories (category, updated_at);

-- Keyword recall (ME-5's full-text half).
CREATE INDEX memories_search ON memories USING GIN (search);
