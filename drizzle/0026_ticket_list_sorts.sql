CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_created_by_updated_idx" ON "tickets" USING btree ("created_by","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_to_updated_idx" ON "tickets" USING btree ("assigned_to","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_updated_idx" ON "tickets" USING btree ("updated_at","id") WHERE "tickets"."assigned_to" is null;--> statement-breakpoint
CREATE INDEX "tickets_priority_idx" ON "tickets" USING btree ("priority","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_created_by_priority_idx" ON "tickets" USING btree ("created_by","priority","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_to_priority_idx" ON "tickets" USING btree ("assigned_to","priority","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_priority_idx" ON "tickets" USING btree ("priority","created_at","id") WHERE "tickets"."assigned_to" is null;--> statement-breakpoint
CREATE INDEX "tickets_created_by_status_idx" ON "tickets" USING btree ("created_by","status","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_to_status_idx" ON "tickets" USING btree ("assigned_to","status","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_status_idx" ON "tickets" USING btree ("status","created_at","id") WHERE "tickets"."assigned_to" is null;