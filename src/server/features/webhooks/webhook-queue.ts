import { randomUUID } from "node:crypto";
import type { Db } from "#server/db/client.ts";
import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import {
  type EventValues,
  findCommentById,
  findFeedback,
} from "#server/features/ticket-records/ticket-activity.queries.ts";
import { ticketDtoFor } from "#server/features/ticket-records/ticket-view.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import type { TicketEventType } from "#shared/tickets/ticket-activity.schemas.ts";
import type { WebhookEventType, WebhookPayload } from "#shared/webhooks/webhook.schemas.ts";
import { findSubscribedEndpoints, insertDeliveries } from "./webhook.queries.ts";

/**
 * Which webhook event a ticket event is, if any: every change a person sees on the timeline (decision 080;
 * until then edits, team moves, tags, links and escalations stayed in the app, decision 029). An automatic
 * close or resolution and a merge (the duplicate is closed; its ticket carries mergedIntoId) are status
 * changes; a reassignment and a team's automatic assignment (decision 073, no actor) are assignments. An
 * internal note is its own type, which an endpoint must choose. A rule's notice and a refused rule change
 * nothing on the ticket (decision 076): the changes a rule makes are sent as theirs, with `via`.
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
  internal_note: "ticket.internal_note",
  edited: "ticket.edited",
  sla_warning: "ticket.sla_escalated",
  sla_breached: "ticket.sla_escalated",
  put_on_hold: "ticket.hold_changed",
  hold_changed: "ticket.hold_changed",
  taken_off_hold: "ticket.hold_changed",
  auto_resolved: "ticket.status_changed",
  team_changed: "ticket.team_changed",
  tags_changed: "ticket.tags_changed",
  // Decision 074: recorded on both tickets, so an endpoint hears of a link once for each.
  linked: "ticket.linked",
  unlinked: "ticket.unlinked",
  merged: "ticket.status_changed",
  merged_in: "ticket.merged_in",
  rule_notified: null,
  rule_refused: null,
  incident_declared: "ticket.incident_changed",
  incident_ended: "ticket.incident_changed",
};

/** A ticket event as the write path recorded it (its timeline row's values) and the ticket after it. */
export type WebhookEventFacts = Omit<EventValues, "ticketId" | "actorId" | "createdAt"> & {
  eventId: string;
  ticket: TicketWithNames;
  actorId: string | null;
  occurredAt: Date;
};

export const newDeliveryId = () => `whd_${randomUUID()}`;

/** The ticket's page in the app (as the notification e-mails link it); a path alone without BASE_URL (bare tests). */
export const ticketUrlOf = (baseURL: string | undefined, ticketId: string) =>
  `${baseURL ?? ""}/tickets/${encodeURIComponent(ticketId)}`;

/** The part of the payload that only this type carries; null when the event must not be sent after all. */
async function partOf(
  tx: Db,
  event: WebhookEventFacts,
  type: WebhookEventType,
): Promise<Partial<WebhookPayload> | null> {
  switch (type) {
    case "ticket.status_changed":
      return { status: { from: event.fromStatus ?? null, to: event.toStatus ?? null } };
    case "ticket.assigned":
      return {
        status: { from: event.fromStatus ?? null, to: event.toStatus ?? null },
        assignee:
          event.type === "assigned"
            ? { from: null, to: event.actorId }
            : { from: event.fromAssigneeId ?? null, to: event.toAssigneeId ?? null },
      };
    case "ticket.commented":
    case "ticket.internal_note": {
      const found = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
      // Belt and braces: an internal note travels only as its own type, which an endpoint must choose.
      if (!found || found.comment.isInternal !== (type === "ticket.internal_note")) return null;
      return {
        comment: {
          id: found.comment.id,
          text: mentionsToPlainText(found.comment.message),
          authorId: found.comment.authorId,
          authorName: found.authorName ?? null,
          isInternal: found.comment.isInternal,
        },
      };
    }
    case "ticket.hold_changed":
      return {
        hold: {
          action:
            event.type === "put_on_hold"
              ? "put_on_hold"
              : event.type === "hold_changed"
                ? "date_changed"
                : "taken_off_hold",
          reason: event.holdEnd ?? null,
        },
      };
    case "ticket.feedback": {
      const feedback = await findFeedback(tx, event.ticket.id);
      return {
        feedback: { rating: feedback?.rating ?? event.rating ?? 0, comment: feedback?.comment ?? null },
      };
    }
    case "ticket.edited":
      return { changes: event.changes ?? [] };
    case "ticket.team_changed":
      return { team: { from: event.fromTeamName ?? null, to: event.toTeamName ?? null } };
    case "ticket.tags_changed":
      return { tags: { added: event.tagsAdded ?? [], removed: event.tagsRemoved ?? [] } };
    case "ticket.linked":
    case "ticket.unlinked":
    case "ticket.merged_in":
      return { link: { ticketId: event.linkedTicketId ?? "", relation: event.linkKind ?? null } };
    case "ticket.sla_escalated":
      return {
        sla: {
          level: event.type === "sla_breached" ? "breached" : "warning",
          target: event.slaTarget ?? null,
          dueAt: event.dueAt?.toISOString() ?? null,
        },
      };
    case "ticket.incident_changed":
      return { incident: { action: event.type === "incident_ended" ? "ended" : "declared" } };
    case "ticket.created":
      return {};
  }
}

async function payloadOf(
  tx: Db,
  event: WebhookEventFacts,
  type: WebhookEventType,
  baseURL: string | undefined,
): Promise<WebhookPayload | null> {
  const part = await partOf(tx, event, type);
  if (!part) return null;
  // The ticket as an administrator reads it through the API, at the moment of the event.
  const ticket = await ticketDtoFor(
    { db: tx, actor: { id: "webhooks", role: "admin" }, clock: { now: () => event.occurredAt } },
    event.ticket,
  );
  const actor = event.actorId ? await findUserById(tx, event.actorId) : undefined;
  const via =
    event.viaKind && event.viaId
      ? { via: { kind: event.viaKind, id: event.viaId, name: event.viaName ?? "" } }
      : {};
  return {
    id: event.eventId,
    type,
    occurredAt: event.occurredAt.toISOString(),
    ticket: { ...ticket, url: ticketUrlOf(baseURL, ticket.ticketId) },
    actor: actor ? { id: actor.id, name: actor.name } : null,
    ...via,
    ...part,
  };
}

/**
 * In the event's own transaction: one pending delivery per active endpoint subscribed to the event, so a
 * rolled-back change sends nothing and a committed one is sent even if the app stops right after. Returns
 * how many were queued (the caller wakes the sender after commit when there are some).
 */
export async function queueWebhookDeliveries(
  tx: Db,
  event: WebhookEventFacts,
  { baseURL }: { baseURL?: string } = {},
): Promise<number> {
  const type = webhookTypeOf[event.type];
  if (!type) return 0;
  const endpoints = await findSubscribedEndpoints(tx, type);
  if (endpoints.length === 0) return 0;
  const payload = await payloadOf(tx, event, type, baseURL);
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
