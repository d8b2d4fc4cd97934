CREATE TABLE "admin_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_id" text,
	"area" text NOT NULL,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"area" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_responded_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_warn_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_warn_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_warned_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_breached_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_warned_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_breached_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "admin_changes" ADD CONSTRAINT "admin_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_changes_created_idx" ON "admin_changes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "admin_changes_area_idx" ON "admin_changes" USING btree ("area","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_sla_due_idx" ON "tickets" USING btree ("sla_due_at","id") WHERE "tickets"."sla_due_at" is not null;--> statement-breakpoint
-- Tickets resolved before this version: their last change is the best known time of resolution.
UPDATE "tickets" SET "resolved_at" = "updated_at" WHERE "status" IN ('Resolved', 'Closed');
