CREATE TABLE "macros" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"reply_visibility" text DEFAULT 'public' NOT NULL,
	"actions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"scope" text NOT NULL,
	"owner_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "macros_scope_check" CHECK ("macros"."scope" in ('personal', 'shared'))
);
--> statement-breakpoint
CREATE TABLE "ticket_links" (
	"id" text PRIMARY KEY NOT NULL,
	"ticket_id" text NOT NULL,
	"linked_ticket_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_links_not_itself_check" CHECK ("ticket_links"."ticket_id" <> "ticket_links"."linked_ticket_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "linked_ticket_id" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "link_kind" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "via_kind" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "via_id" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "via_name" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "merged_into_id" text;--> statement-breakpoint
ALTER TABLE "macros" ADD CONSTRAINT "macros_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_links" ADD CONSTRAINT "ticket_links_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_links" ADD CONSTRAINT "ticket_links_linked_ticket_id_tickets_id_fk" FOREIGN KEY ("linked_ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_links" ADD CONSTRAINT "ticket_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "macros_personal_title_idx" ON "macros" USING btree ("owner_id",lower("title")) WHERE "macros"."scope" = 'personal';--> statement-breakpoint
CREATE UNIQUE INDEX "macros_shared_title_idx" ON "macros" USING btree (lower("title")) WHERE "macros"."scope" = 'shared';--> statement-breakpoint
CREATE INDEX "macros_owner_idx" ON "macros" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_links_pair_idx" ON "ticket_links" USING btree (least("ticket_id", "linked_ticket_id"),greatest("ticket_id", "linked_ticket_id"));--> statement-breakpoint
CREATE INDEX "ticket_links_ticket_idx" ON "ticket_links" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_links_linked_idx" ON "ticket_links" USING btree ("linked_ticket_id","kind");--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_merged_into_id_tickets_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;