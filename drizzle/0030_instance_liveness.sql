CREATE TABLE "app_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claimed_by" text;