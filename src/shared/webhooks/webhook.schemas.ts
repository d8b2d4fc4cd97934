import { z } from "zod";
import { slaTargets } from "#shared/service-levels/sla-escalation.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketLinkRelations } from "#shared/ticket-links/ticket-link.schemas.ts";
import { ticketSchema } from "#shared/tickets/ticket.schemas.ts";
import { ticketChangeSchema } from "#shared/tickets/ticket-edit.ts";

/**
 * What a webhook endpoint can subscribe to (decisions 029, 080): every change a person sees on the ticket's
 * timeline. Each endpoint chooses its types; a type added later is off for the endpoints registered before
 * it. `ticket.internal_note` carries staff-only text: sent only to endpoints that chose it.
 */
export const webhookEventTypes = [
  "ticket.created",
  "ticket.status_changed",
  "ticket.assigned",
  "ticket.commented",
  "ticket.feedback",
  "ticket.hold_changed",
  "ticket.edited",
  "ticket.team_changed",
  "ticket.tags_changed",
  "ticket.linked",
  "ticket.unlinked",
  "ticket.merged_in",
  "ticket.sla_escalated",
  "ticket.incident_changed",
  "ticket.internal_note",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventLabels: Record<WebhookEventType, string> = {
  "ticket.created": "Ticket created",
  "ticket.status_changed": "Status changed",
  "ticket.assigned": "Assigned",
  "ticket.commented": "Public comment",
  "ticket.feedback": "Feedback given",
  "ticket.hold_changed": "On hold or taken off hold",
  "ticket.edited": "Details or custom fields edited",
  "ticket.team_changed": "Moved to another team",
  "ticket.tags_changed": "Tags changed",
  "ticket.linked": "Linked to another ticket",
  "ticket.unlinked": "Link removed",
  "ticket.merged_in": "A duplicate merged in",
  "ticket.sla_escalated": "Service-level warning or breach",
  "ticket.incident_changed": "Major incident declared or ended",
  "ticket.internal_note": "Internal note (staff-only text)",
};

/** The event "Send test" sends (decision 080): not a subscription, sent when an administrator asks. */
export const webhookTestEventType = "webhook.test";

/** Consecutive failed deliveries after which an endpoint is switched off (decision 080); 0: never. */
export const defaultWebhookFailureLimit = 20;
export const maxWebhookFailureLimit = 1000;

export const webhookDeliveryStatuses = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

export const webhookUrlMaxLength = 2000;
export const webhookDescriptionMaxLength = 200;
/** Endpoints one installation may register. */
export const webhookEndpointLimit = 50;

export const webhookIdPattern = /^whk_[0-9a-f]{16}$/;
export const webhookDeliveryIdPattern = /^whd_[0-9a-f-]{36}$/;

const urlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "URL is required" : "URL must be text") })
  .trim()
  .min(1, "URL is required")
  .max(webhookUrlMaxLength, `URL must be at most ${webhookUrlMaxLength} characters`)
  .refine((value) => URL.canParse(value), "URL must be a full address such as https://example.com/hook")
  .refine(
    (value) => !URL.canParse(value) || /^https?:$/.test(new URL(value).protocol),
    "URL must start with http:// or https://",
  )
  .refine(
    (value) => !URL.canParse(value) || (new URL(value).username === "" && new URL(value).password === ""),
    "URL must not contain a user name or password",
  );

const descriptionSchema = storableText(
  z
    .string({ error: "Description must be text" })
    .trim()
    .max(
      webhookDescriptionMaxLength,
      `Description must be at most ${webhookDescriptionMaxLength} characters`,
    ),
  "Description",
);

const eventsSchema = z
  .array(z.enum(webhookEventTypes, { error: "Events: not a webhook event" }), {
    error: "Events must be a list",
  })
  .min(1, "Choose at least one event")
  .transform((events) => webhookEventTypes.filter((type) => events.includes(type)));

const failureLimitMessage = `Switch off after must be a whole number from 0 (never) to ${maxWebhookFailureLimit}`;
const failureLimitSchema = z
  .number({ error: failureLimitMessage })
  .int(failureLimitMessage)
  .min(0, failureLimitMessage)
  .max(maxWebhookFailureLimit, failureLimitMessage);

export const createWebhookInputSchema = z.object({
  url: urlSchema,
  description: descriptionSchema.optional().default(""),
  events: eventsSchema,
  active: z.boolean({ error: "Active must be true or false" }).optional().default(true),
  /** Consecutive failed deliveries after which the endpoint is switched off; 0: never (decision 080). */
  failureLimit: failureLimitSchema.optional().default(defaultWebhookFailureLimit),
});
export type CreateWebhookInput = z.input<typeof createWebhookInputSchema>;

export const updateWebhookInputSchema = z
  .object({
    url: urlSchema.optional(),
    description: descriptionSchema.optional(),
    events: eventsSchema.optional(),
    active: z.boolean({ error: "Active must be true or false" }).optional(),
    failureLimit: failureLimitSchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), "Nothing to change");
export type UpdateWebhookInput = z.input<typeof updateWebhookInputSchema>;

export const webhookIdParamsSchema = z.object({
  webhookId: z.string().regex(webhookIdPattern, "Not a webhook id"),
});
export const webhookDeliveryParamsSchema = webhookIdParamsSchema.extend({
  deliveryId: z.string().regex(webhookDeliveryIdPattern, "Not a delivery id"),
});

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  active: z.boolean(),
  /** Consecutive failed deliveries after which it is switched off; 0: never (decision 080). */
  failureLimit: z.number().int(),
  /** Deliveries that failed in a row since the last one delivered. */
  consecutiveFailures: z.number().int(),
  /**
   * Set when the app switched the endpoint off after `failureLimit` failed deliveries, with why; cleared
   * when an administrator switches it on again.
   */
  disabledAt: z.iso.datetime().nullable(),
  disabledReason: z.string().nullable(),
  /** The secret's last characters, to recognise it; the whole secret is shown only when made. */
  secretHint: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The answer to creating an endpoint or rotating its secret: the only time the secret is shown. */
export const webhookWithSecretSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string().nullable(),
  eventType: z.enum(webhookEventTypes),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  /** The receiver's answer, its first 1 KB at most. */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
  /** Set on a delivery made by "Redeliver": the one it repeats. */
  redeliveryOf: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = z.object({
  items: z.array(webhookDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const webhookDeliveryQuerySchema = z.object({ cursor: z.string().max(400).optional() });

/** Header names a receiver reads (docs/api.md, "Webhooks"). */
export const webhookHeaders = {
  id: "Helpdesk-Webhook-Id",
  timestamp: "Helpdesk-Webhook-Timestamp",
  signature: "Helpdesk-Webhook-Signature",
} as const;

export const onlyAdminsManageWebhooks = "Only administrators can manage webhooks.";

const fromTo = z.object({ from: z.string().nullable(), to: z.string().nullable() });

/** The sender of the payload's events: a person, or null for the app itself (a job, a rule's notice). */
const actorSchema = z.object({ id: z.string(), name: z.string() }).nullable();

/**
 * The JSON body of every delivery of a ticket event (docs/api.md, "Webhooks"); the OpenAPI document's
 * `webhooks` describe it with this schema. Each type adds its own part; new fields may appear.
 */
export const webhookPayloadSchema = z.object({
  /** The ticket event's id: the same in a redelivery, so a receiver can ignore what it already handled. */
  id: z.string().meta({ description: "The ticket event's id: the same in a redelivery" }),
  type: z.enum(webhookEventTypes),
  occurredAt: z.string(),
  /**
   * The ticket after the change, as GET /api/tickets/:id shows it to an administrator, with `url`: its page
   * in the app (BASE_URL + /tickets/:id).
   */
  ticket: ticketSchema.extend({
    url: z.string().meta({ description: "The ticket's page in the app: BASE_URL/tickets/<ticketId>" }),
  }),
  /** Who made the change; null for the app itself (auto-close, a team's automatic assignment, a job). */
  actor: actorSchema,
  /** A change made by a macro, an automation rule or a major incident's update (decisions 075–077). */
  via: z.object({ kind: z.enum(["macro", "rule", "incident"]), id: z.string(), name: z.string() }).optional(),
  /** ticket.status_changed (and the status part of ticket.assigned). */
  status: fromTo.optional(),
  /** ticket.assigned: the assignee before and after (null: the queue). */
  assignee: fromTo.optional(),
  /**
   * ticket.commented: the public comment; ticket.internal_note: the staff-only note (only to endpoints that
   * chose that type). Mentions as plain text.
   */
  comment: z
    .object({
      id: z.string(),
      text: z.string(),
      authorId: z.string(),
      authorName: z.string().nullable(),
      isInternal: z.boolean(),
    })
    .optional(),
  /** ticket.feedback: the rating (1–5) and the creator's comment. */
  feedback: z.object({ rating: z.number(), comment: z.string().nullable() }).optional(),
  /**
   * ticket.hold_changed (decision 070): put on hold, a new lift date, or taken off hold and why (staff,
   * the requester's reply, the lift date, a status change). The ticket carries onHoldSince and holdUntil.
   */
  hold: z
    .object({
      action: z.enum(["put_on_hold", "date_changed", "taken_off_hold"]),
      reason: z.enum(["staff", "reply", "date", "status"]).nullable(),
    })
    .optional(),
  /**
   * ticket.edited: each field changed, from → to as the timeline shows it (decision 015); a custom field's
   * change is `cf:<fieldId>` with its `label` (decision 022).
   */
  changes: z.array(ticketChangeSchema).optional(),
  /** ticket.team_changed: the teams by their names at the time; null on a side means no team. */
  team: fromTo.optional(),
  /** ticket.tags_changed: the tags added and removed (decision 071). */
  tags: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
  /**
   * ticket.linked, ticket.unlinked: the other ticket and what it is to this one (decision 074; recorded on
   * both tickets, so an endpoint hears it once for each); ticket.merged_in: the duplicate merged into this
   * ticket (relation null).
   */
  link: z.object({ ticketId: z.string(), relation: z.enum(ticketLinkRelations).nullable() }).optional(),
  /** ticket.sla_escalated: a warning (due soon) or a breach of a target, and the due time it was about. */
  sla: z
    .object({
      level: z.enum(["warning", "breached"]),
      target: z.enum(slaTargets).nullable(),
      dueAt: z.string().nullable(),
    })
    .optional(),
  /** ticket.incident_changed (decision 077): declared (or its headline changed) or ended. */
  incident: z.object({ action: z.enum(["declared", "ended"]) }).optional(),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** The body of "Send test" (decision 080): signed like any delivery, about no ticket. */
export const webhookTestPayloadSchema = z.object({
  /** A fresh id for each test. */
  id: z.string(),
  type: z.literal(webhookTestEventType),
  occurredAt: z.string(),
  webhook: z.object({ id: z.string(), url: z.string() }),
  /** The administrator who sent it. */
  actor: actorSchema,
});
export type WebhookTestPayload = z.infer<typeof webhookTestPayloadSchema>;

/** The answer to "Send test": the attempt's outcome, at once. */
export const webhookTestResultSchema = z.object({
  /** The receiver answered 2xx. */
  delivered: z.boolean(),
  responseStatus: z.number().int().nullable(),
  /** The receiver's answer, its first 1 KB at most. */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  sentAt: z.iso.datetime(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;
