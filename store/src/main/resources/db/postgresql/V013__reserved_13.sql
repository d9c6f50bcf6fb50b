-- Clawgate store, schema version 13: a placeholder on the cluster branch only, so the list stays without gaps.
-- Another branch owns V013; when merging, its script replaces this one (this one does nothing).
SELECT 1;
