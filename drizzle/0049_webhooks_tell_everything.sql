ALTER TYPE "public"."notification_type" ADD VALUE 'webhook_disabled' BEFORE 'test';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited,sla_warning,sla_breached,ticket_auto_closed,ticket_hold_lifted,ticket_auto_resolved,rule_notice,webhook_disabled}'::text[];--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "failure_limit" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_reason" text;