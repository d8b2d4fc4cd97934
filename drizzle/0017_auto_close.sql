ALTER TYPE "public"."notification_type" ADD VALUE 'ticket_auto_closed' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'auto_closed';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited,sla_warning,sla_breached,ticket_auto_closed}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "idle_days" integer;--> statement-breakpoint
CREATE INDEX "tickets_resolved_activity_idx" ON "tickets" USING btree ("updated_at","id") WHERE "tickets"."status" = 'Resolved';