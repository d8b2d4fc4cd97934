ALTER TYPE "public"."notification_type" ADD VALUE 'ticket_edited' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'edited';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "changes" jsonb;