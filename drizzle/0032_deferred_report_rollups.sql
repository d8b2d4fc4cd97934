-- The tickets' report rollup trigger (0025) runs at commit instead of at each write (decision 047).
-- Immediate, it locked the day's rollup row (one per day, category, priority and department) from a
-- ticket's insert until its transaction committed, so every ticket created the same day in the same
-- category queued behind the one before it for its whole transaction (notifications, e-mails and timeline
-- included). Deferred, the same increments run in the same transaction, from the row values each write
-- recorded, at its end: the lock is held only while committing. (The ratings' trigger stays immediate: it
-- reads the ticket's technician when it runs, and a technician change moves the ratings at once.)
DROP TRIGGER tickets_report_rollup ON tickets;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER tickets_report_rollup AFTER INSERT OR UPDATE OR DELETE ON tickets
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION report_rollup_track();
