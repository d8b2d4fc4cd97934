ALTER TYPE "public"."ticket_event_type" ADD VALUE 'auto_assigned';--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "assignment_mode" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- custom SQL (kept on renumbering)
-- Team queues (decision 073): the dashboard counters (decision 039) also count each team's tickets
-- ('t:<team>') and its unassigned ones ('tu:<team>') by status, so that the team tabs, the admins' counts by
-- team and the reports' open tickets per team read a few rows instead of counting tickets. Writers wait while
-- the new counts are first taken, so that no ticket written meanwhile is missed or counted twice.
LOCK TABLE "tickets" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_count_keys(t tickets, sign integer)
RETURNS TABLE (scope text, status ticket_status, n integer) LANGUAGE sql STABLE AS $$
  SELECT k, t.status, sign
  FROM unnest(ARRAY[
    'all',
    CASE WHEN t.assigned_to IS NULL THEN 'unassigned' END,
    'a:' || t.assigned_to,
    'c:' || t.created_by,
    CASE WHEN t.assigned_to = t.created_by THEN 'ca:' || t.created_by END,
    CASE WHEN t.assigned_to IS NULL THEN 'cu:' || t.created_by END,
    'r:' || t.resolved_by,
    't:' || t.team_id,
    CASE WHEN t.assigned_to IS NULL THEN 'tu:' || t.team_id END
  ]) AS k
  WHERE k IS NOT NULL AND t.id IS NOT NULL
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (old.status, old.created_by, old.assigned_to, old.resolved_by, old.team_id)
      IS NOT DISTINCT FROM (new.status, new.created_by, new.assigned_to, new.resolved_by, new.team_id) THEN
    RETURN NULL; -- a comment, a title, a priority: no count changes
  END IF;
  -- One statement, rows in one order: two writers never lock the same counts in opposite orders.
  INSERT INTO ticket_counts AS c (scope, status, slot, n)
  SELECT d.scope, d.status, (pg_backend_pid() % 16)::smallint, sum(d.n)
  FROM (
    SELECT * FROM ticket_count_keys(old, -1)
    UNION ALL
    SELECT * FROM ticket_count_keys(new, 1)
  ) d
  GROUP BY d.scope, d.status
  HAVING sum(d.n) <> 0
  ORDER BY d.scope, d.status
  ON CONFLICT (scope, status, slot) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO ticket_counts AS c (scope, status, slot, n)
SELECT k.scope, k.status, 0, sum(k.n)
FROM tickets t CROSS JOIN LATERAL ticket_count_keys(t, 1) k
WHERE k.scope LIKE 't:%' OR k.scope LIKE 'tu:%'
GROUP BY k.scope, k.status
ON CONFLICT (scope, status, slot) DO UPDATE SET n = c.n + excluded.n;
