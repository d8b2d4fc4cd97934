ALTER TYPE "public"."notification_type" ADD VALUE 'internal_note' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'internal_note';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD COLUMN "is_internal" boolean DEFAULT false NOT NULL;