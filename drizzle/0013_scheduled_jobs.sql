CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"locked_by" text,
	"last_run_at" timestamp (3) with time zone,
	"last_finished_at" timestamp (3) with time zone,
	"last_done" integer,
	"last_duration_ms" integer,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone
);
