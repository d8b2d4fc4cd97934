CREATE TABLE "automation_rule_runs" (
	"rule_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"ran_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_rule_runs_rule_id_ticket_id_pk" PRIMARY KEY("rule_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "automation_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"trigger" text NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_rules_trigger_check" CHECK ("automation_rules"."trigger" in ('created', 'changed', 'time'))
);
--> statement-breakpoint
ALTER TABLE "automation_rule_runs" ADD CONSTRAINT "automation_rule_runs_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_rule_runs" ADD CONSTRAINT "automation_rule_runs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_rule_runs_ticket_idx" ON "automation_rule_runs" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_rules_name_idx" ON "automation_rules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "automation_rules_trigger_idx" ON "automation_rules" USING btree ("trigger","position") WHERE "automation_rules"."enabled";