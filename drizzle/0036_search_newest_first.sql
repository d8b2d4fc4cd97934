DROP INDEX "tickets_status_idx";--> statement-breakpoint
CREATE INDEX "tickets_status_idx" ON "tickets" USING btree ("status","created_at","id","priority","category");