CREATE TABLE "ticket_counts" (
	"scope" text NOT NULL,
	"status" "ticket_status" NOT NULL,
	"slot" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ticket_counts_scope_status_slot_pk" PRIMARY KEY("scope","status","slot")
);
--> statement-breakpoint
-- Dashboard counts (decision 039), kept exact by triggers like the report rollups (decision 027): whatever
-- writes a ticket adjusts them in the same transaction. Writers wait while the counts are first taken, so
-- that no ticket written meanwhile is missed or counted twice.
LOCK TABLE "tickets" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The counts one ticket belongs to (see src/server/db/schema/ticket-counts.ts), each with this sign.
CREATE FUNCTION ticket_count_keys(t tickets, sign integer)
RETURNS TABLE (scope text, status ticket_status, n integer) LANGUAGE sql STABLE AS $$
  SELECT k, t.status, sign
  FROM unnest(ARRAY[
    'all',
    CASE WHEN t.assigned_to IS NULL THEN 'unassigned' END,
    'a:' || t.assigned_to,
    'c:' || t.created_by,
    CASE WHEN t.assigned_to = t.created_by THEN 'ca:' || t.created_by END,
    CASE WHEN t.assigned_to IS NULL THEN 'cu:' || t.created_by END,
    'r:' || t.resolved_by
  ]) AS k
  WHERE k IS NOT NULL AND t.id IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (old.status, old.created_by, old.assigned_to, old.resolved_by)
      IS NOT DISTINCT FROM (new.status, new.created_by, new.assigned_to, new.resolved_by) THEN
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
CREATE TRIGGER tickets_count AFTER INSERT OR UPDATE OR DELETE ON tickets
FOR EACH ROW EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
CREATE FUNCTION ticket_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE ticket_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_count_truncate AFTER TRUNCATE ON tickets
FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_clear();
--> statement-breakpoint
INSERT INTO ticket_counts (scope, status, slot, n)
SELECT k.scope, k.status, 0, sum(k.n)
FROM tickets t CROSS JOIN LATERAL ticket_count_keys(t, 1) k
GROUP BY k.scope, k.status;
