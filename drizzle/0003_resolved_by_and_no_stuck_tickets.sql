ALTER TABLE "tickets" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_resolved_by_idx" ON "tickets" USING btree ("resolved_by") WHERE "tickets"."resolved_by" is not null;--> statement-breakpoint
-- Who resolved each ticket that is Resolved or Closed now: the actor of its latest change to Resolved,
-- unless it went back to In Progress after that (which clears it).
UPDATE "tickets" SET "resolved_by" = "resolved"."actor_id"
FROM (
  SELECT DISTINCT ON ("ticket_id") "ticket_id", "actor_id", "created_at"
  FROM "ticket_events"
  WHERE "type" = 'status_changed' AND "to_status" = 'Resolved'
  ORDER BY "ticket_id", "created_at" DESC, "id" DESC
) AS "resolved"
WHERE "tickets"."id" = "resolved"."ticket_id"
  AND "tickets"."status" IN ('Resolved', 'Closed')
  AND NOT EXISTS (
    SELECT 1 FROM "ticket_events" AS "later"
    WHERE "later"."ticket_id" = "resolved"."ticket_id"
      AND "later"."to_status" = 'In Progress'
      AND "later"."created_at" > "resolved"."created_at"
  );--> statement-breakpoint
-- In Progress needs an assignee (src/shared/tickets/ticket-status.ts). A ticket an administrator set
-- In Progress while unassigned could never be assigned: it goes back to Open, with a timeline entry.
INSERT INTO "ticket_events" ("id", "ticket_id", "type", "actor_id", "from_status", "to_status", "created_at")
SELECT 'EVTREOPEN' || substr("id", 4), "id", 'status_changed', NULL, 'In Progress', 'Open', now()
FROM "tickets"
WHERE "status" = 'In Progress' AND "assigned_to" IS NULL;--> statement-breakpoint
UPDATE "tickets" SET "status" = 'Open', "updated_at" = now()
WHERE "status" = 'In Progress' AND "assigned_to" IS NULL;
