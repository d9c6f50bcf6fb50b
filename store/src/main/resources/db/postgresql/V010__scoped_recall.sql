-- Clawgate store, schema version 10 (PostgreSQL): a reply's receipt finds its transcript row in one
-- probe (SPEC OUT-8). SQLite's V010 also rebuilds its keyword index keyed by scope; PostgreSQL's
-- recall needs no change: it reads a scope's entries through memories_scope_updated and filters
-- them by search, so it never walks other scopes' entries.
CREATE INDEX transcript_inbox_id ON transcript (inbox_id);
