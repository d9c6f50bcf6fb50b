-- Clawgate store, schema version 12: reserved for another branch's migration (numbers are handed out per
-- branch); this script does nothing and only keeps the numbering without gaps until that branch is merged.
SELECT 1;
