import type { NotificationType } from "#shared/notifications/notification.schemas.ts";
import type { TicketFacts } from "#shared/permissions.ts";
import { ticketFieldLabels } from "#shared/tickets/ticket-edit.ts";
import type { Db } from "../db/client.ts";
import {
  insertBroadcastToTechnicians,
  insertNotifications,
} from "../features/notifications/notification.queries.ts";
import { queueNotificationMails } from "../features/notifications/notification-mail.service.ts";
import { findTicketById, type TicketWithNames } from "../features/tickets/ticket.queries.ts";
import {
  type EventValues,
  findCommentById,
  findFeedback,
  insertTicketEvent,
} from "../features/tickets/ticket-activity.queries.ts";
import { findUserById } from "../features/users/user.queries.ts";
import type { Announcement, LogError, MailSideEffect } from "./dispatcher.ts";

export type TicketEventInput = EventValues;
export type TicketEventAnnouncement = Extract<Announcement, { kind: "ticket-event" }>;

/**
 * Who hears about an event (spec §7), never the person who caused it. `technicians` is the broadcast of a
 * new ticket; the others are people on the ticket.
 */
export function recipientsOf(
  type: TicketEventInput["type"],
  ticket: Pick<TicketFacts, "createdBy" | "assignedTo">,
  actorId: string | null,
): "technicians" | string[] {
  if (type === "created") return "technicians";
  // The ticket is read after the change: for "reassigned", assignedTo is the new assignee.
  const people =
    type === "assigned"
      ? [ticket.createdBy]
      : type === "feedback" || type === "internal_note"
        ? [ticket.assignedTo]
        : [ticket.createdBy, ticket.assignedTo];
  return [...new Set(people)].filter((id): id is string => id !== null && id !== actorId);
}

const notificationTypeOf: Record<TicketEventInput["type"], NotificationType> = {
  created: "new_ticket",
  commented: "ticket_comment",
  status_changed: "ticket_status",
  assigned: "ticket_assigned",
  feedback: "ticket_feedback",
  reassigned: "ticket_assigned",
  internal_note: "internal_note",
  edited: "ticket_edited",
};

const commentPreviewLength = 100;
const preview = (text: string) =>
  text.length > commentPreviewLength ? `${text.slice(0, commentPreviewLength)}…` : text;
export const stars = (rating: number) => "★".repeat(rating) + "☆".repeat(5 - rating);

async function messageOf(tx: Db, event: TicketEventInput, ticket: TicketWithNames): Promise<string> {
  const actorName = async () =>
    (event.actorId ? (await findUserById(tx, event.actorId))?.name : undefined) ?? "Someone";
  switch (event.type) {
    case "created":
      // Spec §7 wording; "ticket created" is also what the technician alert listens for (spec §9).
      return `NEW TICKET CREATED: ${ticket.title} | Department: ${ticket.department} | Floor: ${ticket.floor}`;
    case "commented": {
      const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
      return `${comment?.authorName ?? "Someone"} commented on ticket ${ticket.id}: ${preview(comment?.comment.message ?? "")}`;
    }
    case "internal_note": {
      const note = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
      return `${note?.authorName ?? "Someone"} added an internal note on ticket ${ticket.id}: ${preview(note?.comment.message ?? "")}`;
    }
    case "status_changed":
      return `${await actorName()} changed the status of ticket ${ticket.id} from ${event.fromStatus} to ${event.toStatus}`;
    case "assigned":
      return `${await actorName()} assigned ticket ${ticket.id} to themselves; it is now In Progress`;
    case "reassigned": {
      const statusChange = event.fromStatus !== event.toStatus ? `; it is now ${event.toStatus}` : "";
      if (!event.toAssigneeId)
        return `${await actorName()} returned ticket ${ticket.id} to the queue${statusChange}`;
      const assignee = (await findUserById(tx, event.toAssigneeId))?.name ?? "someone";
      return `${await actorName()} assigned ticket ${ticket.id} to ${assignee}${statusChange}`;
    }
    case "edited": {
      // The description may be long: the notification says it changed; the ticket shows the new text.
      const changes = (event.changes ?? []).map((change) =>
        change.field === "description"
          ? "Description edited"
          : `${ticketFieldLabels[change.field]}: ${preview(change.from)} → ${preview(change.to)}`,
      );
      return `${await actorName()} edited ticket ${ticket.id}: ${changes.join("; ")}`;
    }
    case "feedback": {
      const rating = event.rating ?? 0;
      const feedback = await findFeedback(tx, ticket.id);
      const comment = feedback?.comment ? `: ${preview(feedback.comment)}` : "";
      return `${await actorName()} rated ticket ${ticket.id} ${stars(rating)} ${rating}/5${comment}`;
    }
  }
}

/**
 * The one write path for a ticket change's side effects, inside the change's own transaction: the timeline
 * row, the notification rows and their e-mail copies (for those who chose them). Returns what to announce
 * once the transaction has committed.
 */
export async function recordTicketEvent(
  tx: Db,
  event: TicketEventInput,
  { logError, mail }: { logError: LogError; mail?: MailSideEffect },
): Promise<{ announcement: TicketEventAnnouncement; mailsQueued: number }> {
  const createdAt = event.createdAt ?? new Date();
  const eventId = await insertTicketEvent(tx, { ...event, createdAt });
  const ticket = await findTicketById(tx, event.ticketId);
  if (!ticket) throw new Error(`recordTicketEvent: ticket ${event.ticketId} does not exist`);
  const recipients = recipientsOf(event.type, ticket, event.actorId ?? null);
  const common = {
    type: notificationTypeOf[event.type],
    message: await messageOf(tx, event, ticket),
    ticketId: ticket.id,
    eventId,
    createdAt,
  };
  const queueMails = async (db: Db, rows: Array<{ id: string | bigint | number; userId: string }>) =>
    mail
      ? queueNotificationMails(
          db,
          rows.map((row) => ({ ...common, ...row, id: String(row.id) })),
          mail,
        )
      : 0;
  let mailsQueued = 0;
  if (recipients === "technicians") {
    // Spec §7: a failed broadcast is logged and never fails the creation. The savepoint undoes only the
    // broadcast (and its mails), so the ticket still commits.
    try {
      mailsQueued = await tx.transaction(async (savepoint) =>
        queueMails(
          savepoint,
          await insertBroadcastToTechnicians(savepoint, { ...common, exceptUserId: event.actorId ?? null }),
        ),
      );
    } catch (error) {
      logError(error, `could not broadcast the new ticket ${ticket.id} to technicians`);
    }
  } else {
    const rows = await insertNotifications(
      tx,
      recipients.map((userId) => ({ ...common, userId, broadcast: false })),
    );
    mailsQueued = await queueMails(tx, rows);
  }
  const announcement: TicketEventAnnouncement = { kind: "ticket-event", eventId, ticketId: ticket.id };
  // Even a content-free "ticket changed" would tell a user that something hidden happened.
  if (event.type === "internal_note") announcement.staffOnly = true;
  return { announcement, mailsQueued };
}
