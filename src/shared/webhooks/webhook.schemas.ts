import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketSchema } from "#shared/tickets/ticket.schemas.ts";

/**
 * What a webhook endpoint can subscribe to (docs/decisions/029-webhooks.md). Internal notes,
 * edits and escalations are never sent: a webhook receiver is outside the team.
 */
export const webhookEventTypes = [
  "ticket.created",
  "ticket.status_changed",
  "ticket.assigned",
  "ticket.commented",
  "ticket.feedback",
  "ticket.hold_changed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventLabels: Record<WebhookEventType, string> = {
  "ticket.created": "Ticket created",
  "ticket.status_changed": "Status changed",
  "ticket.assigned": "Assigned",
  "ticket.commented": "Public comment",
  "ticket.feedback": "Feedback given",
  "ticket.hold_changed": "On hold or taken off hold",
};

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

export const createWebhookInputSchema = z.object({
  url: urlSchema,
  description: descriptionSchema.optional().default(""),
  events: eventsSchema,
  active: z.boolean({ error: "Active must be true or false" }).optional().default(true),
});
export type CreateWebhookInput = z.input<typeof createWebhookInputSchema>;

export const updateWebhookInputSchema = z
  .object({
    url: urlSchema.optional(),
    description: descriptionSchema.optional(),
    events: eventsSchema.optional(),
    active: z.boolean({ error: "Active must be true or false" }).optional(),
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

/**
 * The JSON body of every delivery (docs/api.md, "Webhooks"); the OpenAPI document's `webhooks` describe
 * it with this schema.
 */
export const webhookPayloadSchema = z.object({
  /** The ticket event's id: the same in a redelivery, so a receiver can ignore what it already handled. */
  id: z.string().meta({ description: "The ticket event's id: the same in a redelivery" }),
  type: z.enum(webhookEventTypes),
  occurredAt: z.string(),
  /** The ticket after the change, as GET /api/tickets/:id shows it to an administrator. */
  ticket: ticketSchema,
  /** Who made the change; null for the app itself (auto-close). */
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** ticket.status_changed (and the status part of ticket.assigned). */
  status: fromTo.optional(),
  /** ticket.assigned: the assignee before and after (null: the queue). */
  assignee: fromTo.optional(),
  /** ticket.commented: the public comment (mentions as plain text). */
  comment: z
    .object({ id: z.string(), text: z.string(), authorId: z.string(), authorName: z.string().nullable() })
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
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
