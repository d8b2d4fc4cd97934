import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { WebhookDeliveryStatus, WebhookEventType } from "#shared/webhooks/webhook.schemas.ts";
import { ticketEvents } from "./ticket-activity.ts";
import { users } from "./users.ts";

// Webhooks (docs/decisions/029-webhooks.md). The secret is kept as it is: the server signs
// every delivery with it (HMAC-SHA256), so it cannot be stored as a hash the way API tokens are.
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  description: text("description").notNull().default(""),
  events: text("events").array().$type<WebhookEventType[]>().notNull(),
  active: boolean("active").notNull().default(true),
  secret: text("secret").notNull(),
  // Decision 080: after `failure_limit` deliveries failed in a row (0: never) the app switches the endpoint
  // off and says why; a delivery made resets the count, switching it on again clears the reason.
  failureLimit: integer("failure_limit").notNull().default(20),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  disabledAt: timestamp("disabled_at", { withTimezone: true, precision: 3 }),
  disabledReason: text("disabled_reason"),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * One POST to one endpoint, written in the same transaction as the ticket event it reports (or by
 * "Redeliver"). The body is kept as the exact bytes sent, so a redelivery repeats them; the signature is
 * computed at each attempt with the endpoint's secret of that moment and the attempt's timestamp.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    // Null once retention or a ticket's deletion removed the event; the delivery's record stays.
    eventId: text("event_id").references(() => ticketEvents.id, { onDelete: "set null" }),
    eventType: text("event_type").$type<WebhookEventType>().notNull(),
    body: text("body").notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due; while an attempt is under way, the end of its claim. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The instance (app_instances.id) making the attempt under way; null when none is. */
    claimedBy: text("claimed_by"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    lastError: text("last_error"),
    redeliveryOf: text("redelivery_of"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, precision: 3 }),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
    // Exactly one delivery per event per endpoint, whatever the write path does; redeliveries are extra.
    uniqueIndex("webhook_deliveries_event_endpoint_idx")
      .on(t.endpointId, t.eventId)
      .where(sql`${t.redeliveryOf} is null and ${t.eventId} is not null`),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    // The sender claims each endpoint's oldest due deliveries (decision 050): only pending rows, per endpoint.
    index("webhook_deliveries_pending_idx")
      .on(t.endpointId, t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_finished_idx").on(t.finishedAt),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
