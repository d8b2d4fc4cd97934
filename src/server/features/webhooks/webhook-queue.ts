import { randomUUID } from "node:crypto";
import type { Db } from "#server/db/client.ts";
import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import { findCommentById, findFeedback } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { ticketDtoFor } from "#server/features/ticket-records/ticket-view.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import type { TicketEventType } from "#shared/tickets/ticket-activity.schemas.ts";
import type { HoldEndReason } from "#shared/tickets/ticket-hold.ts";
import type { WebhookEventType, WebhookPayload } from "#shared/webhooks/webhook.schemas.ts";
import { findSubscribedEndpoints, insertDeliveries } from "./webhook.queries.ts";

/**
 * Which webhook event a ticket event is, if any. Internal notes, edits and escalations are staff-only and
 * never leave the app, and so do team moves (a team is staff's way of sharing the work, decision 069; the
 * payload's ticket carries its team); an automatic close is a status change; a reassignment and a team's
 * automatic assignment (decision 073, no actor) are assignments.
 */
const webhookTypeOf: Record<TicketEventType, WebhookEventType | null> = {
  created: "ticket.created",
  status_changed: "ticket.status_changed",
  auto_closed: "ticket.status_changed",
  assigned: "ticket.assigned",
  reassigned: "ticket.assigned",
  auto_assigned: "ticket.assigned",
  commented: "ticket.commented",
  feedback: "ticket.feedback",
  internal_note: null,
  edited: null,
  sla_warning: null,
  sla_breached: null,
  put_on_hold: "ticket.hold_changed",
  hold_changed: "ticket.hold_changed",
  taken_off_hold: "ticket.hold_changed",
  // The job's resolution of a ticket that waited too long is a status change, as auto-close's is.
  auto_resolved: "ticket.status_changed",
  team_changed: null,
  // Tags are staff's labels (decision 071): they stay in the app, like team moves.
  tags_changed: null,
  // Decision 074: links stay in the app; a merge closes the duplicate, a status change to integrations (its
  // payload's ticket carries mergedIntoId); what was merged into the target is not sent.
  linked: null,
  unlinked: null,
  merged: "ticket.status_changed",
  merged_in: null,
  // Decision 076: a rule's notice and a refused rule are staff's; the changes a rule made are sent as theirs.
  rule_notified: null,
  rule_refused: null,
  // Decision 077: declaring and ending a major incident are staff's; its updates and resolution reach
  // integrations as the comments and status changes they post.
  incident_declared: null,
  incident_ended: null,
};

export interface WebhookEventFacts {
  eventId: string;
  type: TicketEventType;
  ticket: TicketWithNames;
  actorId: string | null;
  occurredAt: Date;
  fromStatus?: string | null;
  toStatus?: string | null;
  fromAssigneeId?: string | null;
  toAssigneeId?: string | null;
  commentId?: string | null;
  rating?: number | null;
  holdEnd?: HoldEndReason | null;
}

export const newDeliveryId = () => `whd_${randomUUID()}`;

async function payloadOf(
  tx: Db,
  event: WebhookEventFacts,
  type: WebhookEventType,
): Promise<WebhookPayload | null> {
  // The ticket as an administrator reads it through the API, at the moment of the event.
  const ticket = await ticketDtoFor(
    { db: tx, actor: { id: "webhooks", role: "admin" }, clock: { now: () => event.occurredAt } },
    event.ticket,
  );
  const actor = event.actorId ? await findUserById(tx, event.actorId) : undefined;
  const payload: WebhookPayload = {
    id: event.eventId,
    type,
    occurredAt: event.occurredAt.toISOString(),
    ticket,
    actor: actor ? { id: actor.id, name: actor.name } : null,
  };
  if (type === "ticket.status_changed" || type === "ticket.assigned") {
    payload.status = { from: event.fromStatus ?? null, to: event.toStatus ?? null };
  }
  if (type === "ticket.assigned") {
    payload.assignee =
      event.type === "assigned"
        ? { from: null, to: event.actorId }
        : { from: event.fromAssigneeId ?? null, to: event.toAssigneeId ?? null };
  }
  if (type === "ticket.commented") {
    const found = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
    // Belt and braces: an internal note is never a "commented" event, and never sent if it were.
    if (!found || found.comment.isInternal) return null;
    payload.comment = {
      id: found.comment.id,
      text: mentionsToPlainText(found.comment.message),
      authorId: found.comment.authorId,
      authorName: found.authorName ?? null,
    };
  }
  if (type === "ticket.hold_changed") {
    payload.hold = {
      action:
        event.type === "put_on_hold"
          ? "put_on_hold"
          : event.type === "hold_changed"
            ? "date_changed"
            : "taken_off_hold",
      reason: event.holdEnd ?? null,
    };
  }
  if (type === "ticket.feedback") {
    const feedback = await findFeedback(tx, event.ticket.id);
    payload.feedback = { rating: feedback?.rating ?? event.rating ?? 0, comment: feedback?.comment ?? null };
  }
  return payload;
}

/**
 * In the event's own transaction: one pending delivery per active endpoint subscribed to the event, so a
 * rolled-back change sends nothing and a committed one is sent even if the app stops right after. Returns
 * how many were queued (the caller wakes the sender after commit when there are some).
 */
export async function queueWebhookDeliveries(tx: Db, event: WebhookEventFacts): Promise<number> {
  const type = webhookTypeOf[event.type];
  if (!type) return 0;
  const endpoints = await findSubscribedEndpoints(tx, type);
  if (endpoints.length === 0) return 0;
  const payload = await payloadOf(tx, event, type);
  if (!payload) return 0;
  const body = JSON.stringify(payload);
  const rows = await insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      id: newDeliveryId(),
      endpointId: endpoint.id,
      eventId: event.eventId,
      eventType: type,
      body,
      createdAt: event.occurredAt,
      nextAttemptAt: event.occurredAt,
    })),
  );
  return rows.length;
}
