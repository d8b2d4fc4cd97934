-- Reports' daily rollups (decision 027), kept exact by triggers: whatever writes a ticket (the services,
-- an import, a bulk update, a delete cascading from elsewhere, a truncate) adjusts the counts in the same
-- transaction, so a report never lags or drifts. Days are calendar days in report_rollup_state.time_zone,
-- the business calendar's zone; changing that zone recounts everything in the same transaction.

-- Adds (sign 1) or takes away (sign -1) one ticket's share of the rollups.
CREATE FUNCTION report_rollup_apply(t tickets, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := (SELECT time_zone FROM report_rollup_state);
BEGIN
  IF zone IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO report_opened_days AS r (day, category, priority, department, count)
  VALUES ((t.created_at AT TIME ZONE zone)::date, t.category, t.priority, t.department, sign)
  ON CONFLICT (day, category, priority, department) DO UPDATE SET count = r.count + excluded.count;
  IF t.done_at IS NOT NULL THEN
    INSERT INTO report_done_days AS r (day, count) VALUES ((t.done_at AT TIME ZONE zone)::date, sign)
    ON CONFLICT (day) DO UPDATE SET count = r.count + excluded.count;
  END IF;
  IF t.first_response_bucket IS NOT NULL THEN
    INSERT INTO report_duration_days AS r (measure, day, bucket, count)
    VALUES ('first_response', (t.created_at AT TIME ZONE zone)::date, t.first_response_bucket, sign)
    ON CONFLICT (measure, day, bucket) DO UPDATE SET count = r.count + excluded.count;
  END IF;
  IF t.resolution_bucket IS NOT NULL THEN
    INSERT INTO report_duration_days AS r (measure, day, bucket, count)
    VALUES ('resolution', (t.done_at AT TIME ZONE zone)::date, t.resolution_bucket, sign)
    ON CONFLICT (measure, day, bucket) DO UPDATE SET count = r.count + excluded.count;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (old.created_at, old.category, old.priority, old.department, old.done_at,
      old.first_response_bucket, old.resolution_bucket) IS NOT DISTINCT FROM (new.created_at, new.category,
      new.priority, new.department, new.done_at, new.first_response_bucket, new.resolution_bucket) THEN
    RETURN NULL; -- a comment, an assignment, a title: nothing a report counts
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM report_rollup_apply(old, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM report_rollup_apply(new, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_report_rollup AFTER INSERT OR UPDATE OR DELETE ON tickets
FOR EACH ROW EXECUTE FUNCTION report_rollup_track();
--> statement-breakpoint
CREATE FUNCTION report_rollup_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE report_opened_days, report_done_days, report_duration_days, report_feedback_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_report_rollup_truncate AFTER TRUNCATE ON tickets
FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_clear();
--> statement-breakpoint
-- Ratings: by the day given, the ticket's technician (who resolved it, else its assignee; '' for nobody)
-- and the rating.
CREATE FUNCTION report_feedback_apply(given integer, submitted timestamptz, technician text, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := (SELECT time_zone FROM report_rollup_state);
BEGIN
  IF zone IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO report_feedback_days AS r (day, technician_id, rating, count)
  VALUES ((submitted AT TIME ZONE zone)::date, coalesce(technician, ''), given, sign)
  ON CONFLICT (day, technician_id, rating) DO UPDATE SET count = r.count + excluded.count;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_feedback_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  technician text;
BEGIN
  IF TG_OP = 'UPDATE' AND (old.ticket_id, old.rating, old.submitted_at)
      IS NOT DISTINCT FROM (new.ticket_id, new.rating, new.submitted_at) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(resolved_by, assigned_to) INTO technician FROM tickets WHERE id = old.ticket_id;
    -- No ticket: it is being deleted, and took its rating's share away before (report_feedback_follow_ticket).
    IF FOUND THEN
      PERFORM report_feedback_apply(old.rating, old.submitted_at, technician, -1);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(resolved_by, assigned_to) INTO technician FROM tickets WHERE id = new.ticket_id;
    PERFORM report_feedback_apply(new.rating, new.submitted_at, technician, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_feedback_report_rollup AFTER INSERT OR UPDATE OR DELETE ON ticket_feedback
FOR EACH ROW EXECUTE FUNCTION report_feedback_track();
--> statement-breakpoint
CREATE TRIGGER ticket_feedback_report_rollup_truncate AFTER TRUNCATE ON ticket_feedback
FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_clear();
--> statement-breakpoint
-- A ticket's rating moves with its technician; a deleted ticket takes it away (before the cascade deletes
-- the rating, while the ticket still says whose it was).
CREATE FUNCTION report_feedback_follow_ticket() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR coalesce(old.resolved_by, old.assigned_to) IS DISTINCT FROM coalesce(new.resolved_by, new.assigned_to) THEN
    PERFORM report_feedback_apply(f.rating, f.submitted_at, coalesce(old.resolved_by, old.assigned_to), -1)
    FROM ticket_feedback f WHERE f.ticket_id = old.id;
  END IF;
  IF TG_OP = 'UPDATE' AND coalesce(old.resolved_by, old.assigned_to) IS DISTINCT FROM coalesce(new.resolved_by, new.assigned_to) THEN
    PERFORM report_feedback_apply(f.rating, f.submitted_at, coalesce(new.resolved_by, new.assigned_to), 1)
    FROM ticket_feedback f WHERE f.ticket_id = new.id;
  END IF;
  RETURN old;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_report_feedback_delete BEFORE DELETE ON tickets
FOR EACH ROW EXECUTE FUNCTION report_feedback_follow_ticket();
--> statement-breakpoint
CREATE TRIGGER tickets_report_feedback_technician AFTER UPDATE OF resolved_by, assigned_to ON tickets
FOR EACH ROW EXECUTE FUNCTION report_feedback_follow_ticket();
--> statement-breakpoint
-- Counts every ticket again in `zone`. A zone PostgreSQL does not know leaves no rollup (the reports then
-- read the tickets directly) rather than refusing the settings change.
CREATE FUNCTION report_rollup_rebuild(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_opened_days;
  DELETE FROM report_done_days;
  DELETE FROM report_duration_days;
  DELETE FROM report_feedback_days;
  DELETE FROM report_rollup_state;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN;
  END;
  INSERT INTO report_rollup_state (singleton, time_zone) VALUES (true, zone);
  INSERT INTO report_opened_days (day, category, priority, department, count)
  SELECT (created_at AT TIME ZONE zone)::date, category, priority, department, count(*)
  FROM tickets GROUP BY 1, 2, 3, 4;
  INSERT INTO report_done_days (day, count)
  SELECT (done_at AT TIME ZONE zone)::date, count(*) FROM tickets WHERE done_at IS NOT NULL GROUP BY 1;
  INSERT INTO report_duration_days (measure, day, bucket, count)
  SELECT 'first_response', (created_at AT TIME ZONE zone)::date, first_response_bucket, count(*)
  FROM tickets WHERE first_response_bucket IS NOT NULL GROUP BY 2, 3
  UNION ALL
  SELECT 'resolution', (done_at AT TIME ZONE zone)::date, resolution_bucket, count(*)
  FROM tickets WHERE resolution_bucket IS NOT NULL GROUP BY 2, 3;
  INSERT INTO report_feedback_days (day, technician_id, rating, count)
  SELECT (f.submitted_at AT TIME ZONE zone)::date, coalesce(t.resolved_by, t.assigned_to, ''), f.rating, count(*)
  FROM ticket_feedback f JOIN tickets t ON t.id = f.ticket_id GROUP BY 1, 2, 3;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_rollup_follow_zone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text := 'UTC'; -- the business calendar's default (src/shared/service-levels/business-calendar.schemas.ts)
BEGIN
  IF coalesce(new.area, old.area) <> 'business-calendar' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    zone := coalesce(new.value ->> 'timeZone', 'UTC');
  END IF;
  IF zone IS DISTINCT FROM (SELECT time_zone FROM report_rollup_state) THEN
    PERFORM report_rollup_rebuild(zone);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER app_settings_report_rollup_zone AFTER INSERT OR UPDATE OR DELETE ON app_settings
FOR EACH ROW EXECUTE FUNCTION report_rollup_follow_zone();
--> statement-breakpoint
-- The backfill: existing tickets counted in the zone saved today.
SELECT report_rollup_rebuild(coalesce(
  (SELECT value ->> 'timeZone' FROM app_settings WHERE area = 'business-calendar'), 'UTC'));
