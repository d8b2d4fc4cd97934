CREATE TABLE "custom_fields" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"category" "ticket_category",
	"required" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"help_text" text DEFAULT '' NOT NULL,
	"retired_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_field_values" (
	"ticket_id" text NOT NULL,
	"field_id" text NOT NULL,
	"text_value" text,
	"number_value" double precision,
	"date_value" date,
	"bool_value" boolean
);
--> statement-breakpoint
ALTER TABLE "ticket_field_values" ADD CONSTRAINT "ticket_field_values_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_field_values" ADD CONSTRAINT "ticket_field_values_field_id_custom_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."custom_fields"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_field_values_ticket_idx" ON "ticket_field_values" USING btree ("ticket_id","field_id");--> statement-breakpoint
CREATE INDEX "ticket_field_values_text_idx" ON "ticket_field_values" USING btree ("field_id","text_value","ticket_id") WHERE "ticket_field_values"."text_value" is not null;--> statement-breakpoint
CREATE INDEX "ticket_field_values_number_idx" ON "ticket_field_values" USING btree ("field_id","number_value","ticket_id") WHERE "ticket_field_values"."number_value" is not null;--> statement-breakpoint
CREATE INDEX "ticket_field_values_date_idx" ON "ticket_field_values" USING btree ("field_id","date_value","ticket_id") WHERE "ticket_field_values"."date_value" is not null;--> statement-breakpoint
CREATE INDEX "ticket_field_values_bool_idx" ON "ticket_field_values" USING btree ("field_id","bool_value","ticket_id") WHERE "ticket_field_values"."bool_value" is not null;