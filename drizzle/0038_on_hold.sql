CREATE TYPE "public"."hold_end_reason" AS ENUM('staff', 'reply', 'date', 'status');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'ticket_hold_lifted' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'ticket_auto_resolved' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'put_on_hold';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'hold_changed';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'taken_off_hold';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'auto_resolved';--> statement-breakpoint
DROP INDEX "tickets_resolution_warn_idx";--> statement-breakpoint
DROP INDEX "tickets_resolution_breach_idx";--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited,sla_warning,sla_breached,ticket_auto_closed,ticket_hold_lifted,ticket_auto_resolved}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "hold_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "hold_end" "hold_end_reason";--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "on_hold_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "hold_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_paused_minutes" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_on_hold_idx" ON "tickets" USING btree ("on_hold_since","id") WHERE "tickets"."on_hold_since" is not null;--> statement-breakpoint
CREATE INDEX "tickets_hold_until_idx" ON "tickets" USING btree ("hold_until") WHERE "tickets"."hold_until" is not null;--> statement-breakpoint
CREATE INDEX "tickets_resolution_warn_idx" ON "tickets" USING btree ("resolution_warn_at") WHERE resolution_warned_at is null and status in ('Open', 'In Progress') and on_hold_since is null;--> statement-breakpoint
CREATE INDEX "tickets_resolution_breach_idx" ON "tickets" USING btree ("resolution_due_at") WHERE resolution_breached_at is null and status in ('Open', 'In Progress') and on_hold_since is null;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_on_hold_in_progress_check" CHECK ("tickets"."on_hold_since" is null or "tickets"."status" = 'In Progress');--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_hold_until_check" CHECK ("tickets"."hold_until" is null or "tickets"."on_hold_since" is not null);