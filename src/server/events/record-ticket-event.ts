import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationType,
} from "#shared/notifications/notification.schemas.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import { autoClosedText } from "#shared/service-levels/auto-close.schemas.ts";
import { isSlaEventType, slaEventText } from "#shared/service-levels/sla-escalation.ts";
import { ticketChangeLabel } from "#shared/tickets/ticket-edit.ts";
import { roleOf } from "#shared/users/roles.ts";
import type { Db } from "../db/client.ts";
import { findFollowerIds } from "../features/followers/follower.queries.ts";
import {
  insertBroadcastToTechnicians,
  insertNotifications,
} from "../features/notifications/notification.queries.ts";
import { queueNotificationMails } from "../features/notifications/notification-mail.service.ts";
import { autoCloseNoticeFor } from "../features/service-levels/auto-close-notice.ts";
import { findEscalationRecipients } from "../features/service-levels/sla-escalation.queries.ts";
import { findTicketById, type TicketWithNames, touchTicket } from "../features/tickets/ticket.queries.ts";
import {
  type EventValues,
  findCommentById,
  findFeedback,
  insertTicketEvent,
} from "../features/tickets/ticket-activity.queries.ts";
import { findPeopleByIds, findUserById } from "../features/users/user.queries.ts";
import { queueWebhookDeliveries } from "../features/webhooks/webhook-queue.ts";
import { maxAnnouncedRecipients } from "../realtime/bus.ts";
import type { Announcement, LogError, MailSideEffect } from "./dispatcher.ts";

export type TicketEventInput = EventValues & {
  /**
   * The people a comment or note mentions who may be told (resolveMentions): each gets one `mentioned`
   * notification instead of the event's usual one.
   */
  mentionedUserIds?: readonly string[];
};
export type TicketEventAnnouncement = Extract<Announcement, { kind: "ticket-event" }>;

/**
 * Who hears about an event (spec §7), never the person who caused it. `technicians` is the broadcast of a
 * new ticket; the others are people on the ticket, and its followers (issue 10 item 5), each once.
 * Whether each may still be told is audienceOf's to decide.
 */
export function recipientsOf(
  type: TicketEventInput["type"],
  ticket: Pick<TicketFacts, "createdBy" | "assignedTo">,
  actorId: string | null,
  followerIds: readonly string[] = [],
): "technicians" | string[] {
  if (type === "created") return "technicians";
  // The ticket is read after the change: for "reassigned", assignedTo is the new assignee.
  const people =
    type === "assigned" || type === "auto_closed"
      ? [ticket.createdBy]
      : type === "feedback" || type === "internal_note"
        ? [ticket.assignedTo]
        : [ticket.createdBy, ticket.assignedTo];
  return [...new Set([...people, ...followerIds])].filter(
    (id): id is string => id !== null && id !== actorId,
  );
}

/**
 * Of `ids`, those who may be told about this ticket now: Active, still allowed to see it (a technician
 * whose ticket went to someone else no longer is; decision 014 checks at notification time rather than
 * dropping the follow), and staff for a staff-only event (an internal note never reaches a user).
 */
async function audienceOf(
  tx: Db,
  ids: readonly string[],
  ticket: TicketFacts,
  staffOnly: boolean,
): Promise<string[]> {
  const people = new Map((await findPeopleByIds(tx, ids)).map((person) => [person.id, person]));
  return ids.filter((id) => {
    const person = people.get(id);
    const actor = { id, role: roleOf(person?.role) };
    return (
      person?.status === "Active" && can.viewTicket(actor, ticket) && (!staffOnly || can.seeInternal(actor))
    );
  });
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
  sla_warning: "sla_warning",
  sla_breached: "sla_breached",
  auto_closed: "ticket_auto_closed",
};

const isEmailableType = (type: NotificationType): type is EmailableNotificationType =>
  emailableNotificationTypes.includes(type as EmailableNotificationType);

const commentPreviewLength = 100;
const preview = (raw: string) => {
  const text = mentionsToPlainText(raw);
  return text.length > commentPreviewLength ? `${text.slice(0, commentPreviewLength)}…` : text;
};

/** What a mentioned person reads instead of the comment's or note's usual notification. */
async function mentionMessageOf(tx: Db, event: TicketEventInput, ticket: TicketWithNames): Promise<string> {
  const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
  const where =
    event.type === "internal_note" ? `in an internal note on ticket ${ticket.id}` : `on ticket ${ticket.id}`;
  return `${comment?.authorName ?? "Someone"} mentioned you ${where}: ${preview(comment?.comment.message ?? "")}`;
}
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
          : `${ticketChangeLabel(change)}: ${preview(change.from)} → ${preview(change.to)}`,
      );
      return `${await actorName()} edited ticket ${ticket.id}: ${changes.join("; ")}`;
    }
    case "feedback": {
      const rating = event.rating ?? 0;
      const feedback = await findFeedback(tx, ticket.id);
      const comment = feedback?.comment ? `: ${preview(feedback.comment)}` : "";
      return `${await actorName()} rated ticket ${ticket.id} ${stars(rating)} ${rating}/5${comment}`;
    }
    case "sla_warning":
    case "sla_breached": {
      // No title: a title saying "ticket created" would set off the technicians' new-ticket alarm.
      const text = slaEventText(event.type, event.slaTarget ?? "resolution", {
        dueAt: event.dueAt ?? null,
        at: event.createdAt ?? new Date(),
      });
      return `${text} on ticket ${ticket.id}`;
    }
    case "auto_closed":
      return `Ticket ${ticket.id} was ${autoClosedText(event.idleDays ?? 0).toLowerCase()}`;
  }
}

/**
 * The one write path for a ticket change's side effects, inside the change's own transaction: the timeline
 * row, the notification rows and their e-mail copies (for those who chose them), and one webhook delivery
 * per subscribed endpoint. Returns what to announce once the transaction has committed.
 */
export async function recordTicketEvent(
  tx: Db,
  event: TicketEventInput,
  { logError, mail }: { logError: LogError; mail?: MailSideEffect },
): Promise<{ announcement: TicketEventAnnouncement; mailsQueued: number; webhooksQueued: number }> {
  const { mentionedUserIds = [], ...values } = event;
  const createdAt = event.createdAt ?? new Date();
  const eventId = await insertTicketEvent(tx, { ...values, createdAt });
  // Anything the creator can see happen is activity, and moves the auto-close date (decision 021); an
  // internal note or an escalation (staff only) is not, or the date would tell a user that something hidden
  // happened.
  if (event.type !== "internal_note" && !isSlaEventType(event.type)) {
    await touchTicket(tx, event.ticketId, createdAt);
  }
  const ticket = await findTicketById(tx, event.ticketId);
  if (!ticket) throw new Error(`recordTicketEvent: ticket ${event.ticketId} does not exist`);
  const actorId = event.actorId ?? null;
  const isEscalation = isSlaEventType(event.type);
  const followerIds = event.type === "created" || isEscalation ? [] : await findFollowerIds(tx, ticket.id);
  // Escalations go to the assignee (or every technician while unassigned) and the admins: staff only.
  const recipients = isEscalation
    ? await findEscalationRecipients(tx, ticket.assignedTo)
    : recipientsOf(event.type, ticket, actorId, [...followerIds, ...mentionedUserIds]);
  const isStaffOnly = event.type === "internal_note" || isEscalation;
  const common = {
    type: notificationTypeOf[event.type],
    message: await messageOf(tx, event, ticket),
    ticketId: ticket.id,
    eventId,
    createdAt,
  };
  const queueMails = async (
    db: Db,
    rows: Array<{ id: string | bigint | number; userId: string; type?: NotificationType; message?: string }>,
  ) =>
    mail
      ? queueNotificationMails(
          db,
          // A reply to mail about something staff-only becomes an internal note, never a public comment.
          rows.map((row) => ({
            ...common,
            ...row,
            id: String(row.id),
            isInternal: isStaffOnly,
            ticketTitle: ticket.title,
          })),
          mail,
        )
      : 0;
  let mailsQueued = 0;
  // Who this event notified, when it is a list (a broadcast's recipients are whoever is a technician).
  let notified: string[] | undefined;
  if (recipients === "technicians") {
    // Spec §7: a failed broadcast is logged and never fails the creation. The savepoint undoes only the
    // broadcast (and its mails), so the ticket still commits. PostgreSQL writes the rows from the
    // technicians and answers only with those who want the e-mail (new-ticket mail is a choice).
    try {
      mailsQueued = await tx.transaction(async (savepoint) =>
        queueMails(
          savepoint,
          await insertBroadcastToTechnicians(savepoint, {
            ...common,
            exceptUserId: event.actorId ?? null,
            mailType: mail && isEmailableType(common.type) ? common.type : null,
          }),
        ),
      );
    } catch (error) {
      logError(error, `could not broadcast the new ticket ${ticket.id} to technicians`);
    }
  } else {
    const audience = await audienceOf(tx, recipients, ticket, event.type === "internal_note" || isEscalation);
    notified = audience;
    // A mentioned person gets the mention instead of the event's usual notification: never two for one act.
    const mentioned = new Set(mentionedUserIds);
    const mention = audience.some((id) => mentioned.has(id))
      ? { type: "mentioned" as const, message: await mentionMessageOf(tx, event, ticket) }
      : undefined;
    // The creator of a ticket that just reached Resolved also learns when it will close by itself.
    const isResolving = event.toStatus === "Resolved" && event.fromStatus !== "Resolved";
    const notice = isResolving ? await autoCloseNoticeFor(tx, createdAt) : null;
    const forCreator = notice ? { message: `${common.message}. ${notice}` } : {};
    const rows = await insertNotifications(
      tx,
      audience.map((userId) => ({
        ...common,
        ...(userId === ticket.createdBy ? forCreator : {}),
        ...(mention && mentioned.has(userId) ? mention : {}),
        userId,
        broadcast: false,
      })),
    );
    mailsQueued = await queueMails(tx, rows);
  }
  // Not in a savepoint: a delivery is queued with its change or the change does not happen (exactly once).
  const webhooksQueued = await queueWebhookDeliveries(tx, {
    eventId,
    type: event.type,
    ticket,
    actorId,
    occurredAt: createdAt,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    fromAssigneeId: event.fromAssigneeId,
    toAssigneeId: event.toAssigneeId,
    commentId: event.commentId,
    rating: event.rating,
  });
  const announcement: TicketEventAnnouncement = {
    kind: "ticket-event",
    eventId,
    ticketId: ticket.id,
    // Read after the change: who may see the ticket now.
    ticket: { createdBy: ticket.createdBy, assignedTo: ticket.assignedTo, status: ticket.status },
  };
  if (notified && notified.length <= maxAnnouncedRecipients) announcement.recipients = notified;
  // Even a content-free "ticket changed" would tell a user that something hidden happened.
  if (event.type === "internal_note" || isEscalation) announcement.staffOnly = true;
  return { announcement, mailsQueued, webhooksQueued };
}
