ALTER TYPE "public"."notification_type" ADD VALUE 'rule_notice' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'rule_notified';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'rule_refused';--> statement-breakpoint
ALTER TABLE "notification_settings" ALTER COLUMN "email_types" SET DEFAULT '{ticket_comment,ticket_status,ticket_assigned,ticket_feedback,internal_note,mentioned,ticket_edited,sla_warning,sla_breached,ticket_auto_closed,ticket_hold_lifted,ticket_auto_resolved,rule_notice}'::text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "note" text;