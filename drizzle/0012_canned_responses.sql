CREATE TABLE "canned_responses" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"scope" text NOT NULL,
	"owner_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "canned_responses_scope_check" CHECK ("canned_responses"."scope" in ('personal', 'shared'))
);
--> statement-breakpoint
ALTER TABLE "canned_responses" ADD CONSTRAINT "canned_responses_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "canned_responses_personal_title_idx" ON "canned_responses" USING btree ("owner_id",lower("title")) WHERE "canned_responses"."scope" = 'personal';--> statement-breakpoint
CREATE UNIQUE INDEX "canned_responses_shared_title_idx" ON "canned_responses" USING btree (lower("title")) WHERE "canned_responses"."scope" = 'shared';--> statement-breakpoint
CREATE INDEX "canned_responses_owner_idx" ON "canned_responses" USING btree ("owner_id");