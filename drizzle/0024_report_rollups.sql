CREATE TABLE "report_done_days" (
	"day" date PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_duration_days" (
	"measure" text NOT NULL,
	"day" date NOT NULL,
	"bucket" smallint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "report_duration_days_measure_day_bucket_pk" PRIMARY KEY("measure","day","bucket")
);
--> statement-breakpoint
CREATE TABLE "report_feedback_days" (
	"day" date NOT NULL,
	"technician_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "report_feedback_days_day_technician_id_rating_pk" PRIMARY KEY("day","technician_id","rating")
);
--> statement-breakpoint
CREATE TABLE "report_opened_days" (
	"day" date NOT NULL,
	"category" "ticket_category" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"department" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "report_opened_days_day_category_priority_department_pk" PRIMARY KEY("day","category","priority","department")
);
--> statement-breakpoint
CREATE TABLE "report_rollup_state" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"time_zone" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_bucket" smallint GENERATED ALWAYS AS (case when first_responded_at is not null then floor(ln(greatest(extract(epoch from first_responded_at - created_at), 1)) / ln(1.1))::smallint end) STORED;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_bucket" smallint GENERATED ALWAYS AS (case when resolved_at is not null then floor(ln(greatest(extract(epoch from resolved_at - created_at), 1)) / ln(1.1))::smallint end) STORED;--> statement-breakpoint
CREATE INDEX "tickets_report_first_response_idx" ON "tickets" USING btree ("first_response_bucket","created_at","first_responded_at") WHERE first_response_bucket is not null;--> statement-breakpoint
CREATE INDEX "tickets_report_resolution_idx" ON "tickets" USING btree ("resolution_bucket","done_at","created_at","resolved_at") WHERE resolution_bucket is not null;