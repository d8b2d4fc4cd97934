ALTER TYPE "public"."ticket_event_type" ADD VALUE 'linked';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'unlinked';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'merged';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'merged_in';