ALTER TYPE "public"."ticket_event_type" ADD VALUE 'tags_changed';--> statement-breakpoint
CREATE TABLE "saved_views" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"sharing" text DEFAULT 'personal' NOT NULL,
	"team_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_views_sharing_check" CHECK ("saved_views"."sharing" in ('personal', 'staff', 'team')),
	CONSTRAINT "saved_views_team_check" CHECK (("saved_views"."sharing" = 'team') = ("saved_views"."team_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "tags_added" text[];--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "tags_removed" text[];--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_personal_name_idx" ON "saved_views" USING btree ("owner_id",lower("name")) WHERE "saved_views"."sharing" = 'personal';--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_shared_name_idx" ON "saved_views" USING btree (lower("name")) WHERE "saved_views"."sharing" <> 'personal';--> statement-breakpoint
CREATE INDEX "saved_views_owner_idx" ON "saved_views" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "saved_views_team_idx" ON "saved_views" USING btree ("team_id") WHERE "saved_views"."team_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_tags_idx" ON "tickets" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "tickets_tagged_idx" ON "tickets" USING btree ("id") WHERE "tickets"."tags" <> '{}'::text[];