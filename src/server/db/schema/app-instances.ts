import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

// One row per running app instance (decision 041): its heartbeat, written every few seconds with the
// database's clock. An instance whose heartbeat has stopped is dead, and the others take over the work it
// had claimed (queued mail, webhook deliveries, scheduled jobs, inbound messages) within seconds instead of
// waiting for the claims' leases to run out.
export const appInstances = pgTable("app_instances", {
  /** The id the instance writes into the claims it takes (claimed_by, locked_by). */
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
