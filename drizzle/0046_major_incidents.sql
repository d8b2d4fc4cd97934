ALTER TYPE "public"."notification_type" ADD VALUE 'known_issue' BEFORE 'test';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'incident_declared';--> statement-breakpoint
ALTER TYPE "public"."ticket_event_type" ADD VALUE 'incident_ended';--> statement-breakpoint
CREATE TABLE "incident_subscribers" (
	"incident_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_subscribers_incident_id_user_id_pk" PRIMARY KEY("incident_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "incident_updates" (
	"id" text PRIMARY KEY NOT NULL,
	"incident_id" text NOT NULL,
	"body" text NOT NULL,
	"author_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "incident_headline" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "incident_declared_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "incident_subscribers" ADD CONSTRAINT "incident_subscribers_incident_id_tickets_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_subscribers" ADD CONSTRAINT "incident_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_updates" ADD CONSTRAINT "incident_updates_incident_id_tickets_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_updates" ADD CONSTRAINT "incident_updates_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_subscribers_user_idx" ON "incident_subscribers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "incident_updates_incident_idx" ON "incident_updates" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_incidents_idx" ON "tickets" USING btree ("incident_declared_at") WHERE "tickets"."incident_headline" is not null;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_incident_check" CHECK (("tickets"."incident_headline" is null) = ("tickets"."incident_declared_at" is null) and coalesce(char_length("tickets"."incident_headline"), 0) <= 120);