-- Clawgate store, schema version 6 (SQLite): long-term memory (SPEC ME-1..ME-7).
-- One statement per ';' at the end of a line; times are epoch milliseconds.

-- One memory. scope is MemoryScope.id() ('global', 'sender|=telegram|=alice', 'session|...');
-- mkey is the memory's key within its scope. content_hash (SHA-256 of the content) keeps
-- identical memories once per scope (ME-7). terms are the content's words as Relevance indexes
-- them, space-separated, and term_count their number: both dialects search and score the same terms.
CREATE TABLE memories (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    scope        TEXT    NOT NULL,
    mkey         TEXT    NOT NULL,
    content      TEXT    NOT NULL,
    category     TEXT    NOT NULL,
    content_hash TEXT    NOT NULL,
    terms        TEXT    NOT NULL,
    term_count   INTEGER NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    CONSTRAINT memories_scope_key UNIQUE (scope, mkey),
    CONSTRAINT memories_scope_hash UNIQUE (scope, content_hash)
);

-- Serves listing a scope and trimming it to its cap.
CREATE INDEX memories_scope_updated ON memories (scope, updated_at);

-- Serves expiring a category by age.
CREATE INDEX memories_category_updated ON memories (category, updated_at);

-- Keyword recall (ME-5's full-text half): rowid = memories.id, kept in step by the store in the
-- same transaction (no triggers: a trigger body holds semicolons the migration runner splits on).
CREATE VIRTUAL TABLE memory_fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2');
