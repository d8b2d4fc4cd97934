CREATE TYPE "public"."sla_target" AS ENUM('first_response', 'resolution');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'sla_warning' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'sla_breached' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'sla_warning';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'sla_breached';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited,sla_warning,sla_breached}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "sla_target" "sla_target";--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "due_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "tickets_first_response_warn_idx" ON "tickets" USING btree ("first_response_warn_at") WHERE first_response_warned_at is null and first_responded_at is null and status in ('Open', 'In Progress');--> statement-breakpoint
CREATE INDEX "tickets_first_response_breach_idx" ON "tickets" USING btree ("first_response_due_at") WHERE first_response_breached_at is null and first_responded_at is null and status in ('Open', 'In Progress');--> statement-breakpoint
CREATE INDEX "tickets_resolution_warn_idx" ON "tickets" USING btree ("resolution_warn_at") WHERE resolution_warned_at is null and status in ('Open', 'In Progress');--> statement-breakpoint
CREATE INDEX "tickets_resolution_breach_idx" ON "tickets" USING btree ("resolution_due_at") WHERE resolution_breached_at is null and status in ('Open', 'In Progress');