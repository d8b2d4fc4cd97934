ALTER TYPE "public"."ticket_event_type" ADD VALUE 'reassigned';--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "from_assignee_id" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "to_assignee_id" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_from_assignee_id_users_id_fk" FOREIGN KEY ("from_assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_to_assignee_id_users_id_fk" FOREIGN KEY ("to_assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;