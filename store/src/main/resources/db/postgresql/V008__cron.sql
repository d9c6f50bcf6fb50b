-- Placeholder on branch h-outbox for version 8, which belongs to the cron work (branch h-agent, V008__cron.sql):
-- at merge that branch's script replaces this file. It exists only so that V009 follows a V008 here.
SELECT 1;
