import type { WebhookDeliveryRow, WebhookEndpointRow } from "#server/db/schema/index.ts";
import type { Webhook, WebhookDelivery } from "#shared/webhooks/webhook.schemas.ts";

export function toWebhookDto(row: WebhookEndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    active: row.active,
    failureLimit: row.failureLimit,
    consecutiveFailures: row.consecutiveFailures,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    secretHint: `…${row.secret.slice(-4)}`,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the admin change history keeps of an endpoint: never its secret. */
export const toWebhookSnapshot = (row: WebhookEndpointRow) => ({
  url: row.url,
  description: row.description,
  events: row.events,
  active: row.active,
  failureLimit: row.failureLimit,
});

export function toWebhookDeliveryDto(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    error: row.lastError,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    redeliveryOf: row.redeliveryOf,
  };
}
