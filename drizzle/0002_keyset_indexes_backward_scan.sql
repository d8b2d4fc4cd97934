DROP INDEX "tickets_created_idx";--> statement-breakpoint
DROP INDEX "tickets_created_by_idx";--> statement-breakpoint
DROP INDEX "tickets_assigned_to_idx";--> statement-breakpoint
DROP INDEX "tickets_unassigned_idx";--> statement-breakpoint
DROP INDEX "tickets_status_idx";--> statement-breakpoint
CREATE INDEX "tickets_created_idx" ON "tickets" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_created_by_idx" ON "tickets" USING btree ("created_by","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_to_idx" ON "tickets" USING btree ("assigned_to","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_idx" ON "tickets" USING btree ("created_at","id") WHERE "tickets"."assigned_to" is null;--> statement-breakpoint
CREATE INDEX "tickets_status_idx" ON "tickets" USING btree ("status","created_at","id");