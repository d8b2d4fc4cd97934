ALTER TYPE "public"."notification_type" ADD VALUE 'ticket_team' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'team_changed';--> statement-breakpoint
CREATE TABLE "routing_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"category" "ticket_category",
	"department" text,
	"custom_field_id" text,
	"custom_field_value" text,
	"title_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"team_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "routing_rules_condition_check" CHECK ("routing_rules"."category" is not null or "routing_rules"."department" is not null or "routing_rules"."custom_field_id" is not null or cardinality("routing_rules"."title_words") > 0),
	CONSTRAINT "routing_rules_custom_field_check" CHECK (("routing_rules"."custom_field_id" is null) = ("routing_rules"."custom_field_value" is null))
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "from_team_name" text;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD COLUMN "to_team_name" text;--> statement-breakpoint
ALTER TABLE "routing_rules" ADD CONSTRAINT "routing_rules_custom_field_id_custom_fields_id_fk" FOREIGN KEY ("custom_field_id") REFERENCES "public"."custom_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_rules" ADD CONSTRAINT "routing_rules_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "routing_rules_team_idx" ON "routing_rules" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_default_idx" ON "teams" USING btree ("is_default") WHERE "teams"."is_default";