import type { Db } from "#server/db/client.ts";
import type { Announcement, MailSideEffect } from "#server/events/dispatcher.ts";
import { findFollowerIds } from "#server/features/followers/follower.queries.ts";
import {
  insertBroadcastToTechnicians,
  insertNotifications,
} from "#server/features/notifications/notification.queries.ts";
import { queueNotificationMails } from "#server/features/notifications/notification-mail.service.ts";
import {
  findTicketById,
  type TicketWithNames,
  touchTicket,
} from "#server/features/ticket-records/ticket.queries.ts";
import {
  type EventValues,
  findCommentById,
  findFeedback,
  insertTicketEvent,
} from "#server/features/ticket-records/ticket-activity.queries.ts";
import { findPeopleByIds, findUserById } from "#server/features/users/user.queries.ts";
import { queueWebhookDeliveries } from "#server/features/webhooks/webhook-queue.ts";
import type { LogError } from "#server/log-error.ts";
import { maxAnnouncedRecipients } from "#server/realtime/bus.ts";
import { mentionsToPlainText } from "#shared/mentions/mentions.ts";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationParams,
  type NotificationType,
} from "#shared/notifications/notification.schemas.ts";
import { isTechnicianAlert } from "#shared/notifications/notification-alerts.ts";
import { shortTicketTitle } from "#shared/notifications/notification-text.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import { autoClosedText } from "#shared/service-levels/auto-close.schemas.ts";
import { isSlaEventType, slaEventText } from "#shared/service-levels/sla-escalation.ts";
import { ticketChangeLabel } from "#shared/tickets/ticket-edit.ts";
import { roleOf } from "#shared/users/roles.ts";
import { autoCloseNoticeFor } from "./auto-close-notice.ts";
import { findEscalationRecipients } from "./recipient.queries.ts";

export type TicketEventInput = EventValues & {
  /**
   * The people a comment or note mentions who may be told (resolveMentions): each gets one `mentioned`
   * notification instead of the event's usual one.
   */
  mentionedUserIds?: readonly string[];
};
type TicketEventAnnouncement = Extract<Announcement, { kind: "ticket-event" }>;

/**
 * Who hears about an event, never the person who caused it. `technicians` is the broadcast of a
 * new ticket; the others are people on the ticket, and its followers (decision 014), each once.
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

/** A notification's English text and what it is made of, for the app to word in the reader's language. */
interface NotificationText {
  message: string;
  params: NotificationParams;
}

/**
 * How a message names its ticket: by its title, quoted and shortened (decision 059). The technician alert
 * listens to the message too: a title that itself says "ticket created" or "commented on ticket"
 * would sound it for a mere status change, so such a message names the ticket by its id instead (the app
 * still shows the title, from the params).
 */
const ticketName = (ticket: Pick<TicketWithNames, "id" | "title">) =>
  isTechnicianAlert({ type: "test", message: ticket.title })
    ? ticket.id
    : `"${shortTicketTitle(ticket.title)}"`;

/** What a mentioned person reads instead of the comment's or note's usual notification. */
async function mentionTextOf(
  tx: Db,
  event: TicketEventInput,
  ticket: TicketWithNames,
): Promise<NotificationText> {
  const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
  const actor = comment?.authorName ?? null;
  const text = preview(comment?.comment.message ?? "");
  const isInternal = event.type === "internal_note";
  const where = `${isInternal ? "in an internal note " : ""}on ticket ${ticketName(ticket)}`;
  return {
    message: `${actor ?? "Someone"} mentioned you ${where}: ${text}`,
    params: { kind: "mentioned", title: ticket.title, actor, preview: text, isInternal },
  };
}
export const stars = (rating: number) => "★".repeat(rating) + "☆".repeat(5 - rating);

async function textOf(tx: Db, event: TicketEventInput, ticket: TicketWithNames): Promise<NotificationText> {
  const actorName = async () =>
    (event.actorId ? (await findUserById(tx, event.actorId))?.name : undefined) ?? null;
  const { title } = ticket;
  const name = ticketName(ticket);
  switch (event.type) {
    case "created":
      // The wording of docs/features.md; "ticket created" is also what the technician alert listens for.
      return {
        message: `NEW TICKET CREATED: ${title} | Department: ${ticket.department} | Floor: ${ticket.floor}`,
        params: { kind: "ticket_created", title, department: ticket.department, floor: ticket.floor },
      };
    case "commented":
    case "internal_note": {
      const comment = event.commentId ? await findCommentById(tx, event.commentId) : undefined;
      const actor = comment?.authorName ?? null;
      const text = preview(comment?.comment.message ?? "");
      const what = event.type === "commented" ? "commented on" : "added an internal note on";
      return {
        message: `${actor ?? "Someone"} ${what} ticket ${name}: ${text}`,
        params: { kind: event.type, title, actor, preview: text },
      };
    }
    case "status_changed": {
      const actor = await actorName();
      const from = event.fromStatus ?? ticket.status;
      const to = event.toStatus ?? ticket.status;
      return {
        message: `${actor ?? "Someone"} changed the status of ticket ${name} from ${from} to ${to}`,
        params: { kind: "status_changed", title, actor, from, to },
      };
    }
    case "assigned": {
      const actor = await actorName();
      return {
        message: `${actor ?? "Someone"} assigned ticket ${name} to themselves; it is now In Progress`,
        params: { kind: "assigned_to_self", title, actor },
      };
    }
    case "reassigned": {
      const actor = await actorName();
      const status = event.toStatus && event.fromStatus !== event.toStatus ? event.toStatus : null;
      const statusChange = status ? `; it is now ${status}` : "";
      if (!event.toAssigneeId)
        return {
          message: `${actor ?? "Someone"} returned ticket ${name} to the queue${statusChange}`,
          params: { kind: "returned_to_queue", title, actor, status },
        };
      const assignee = (await findUserById(tx, event.toAssigneeId))?.name ?? null;
      return {
        message: `${actor ?? "Someone"} assigned ticket ${name} to ${assignee ?? "someone"}${statusChange}`,
        params: { kind: "reassigned", title, actor, assignee, status },
      };
    }
    case "edited": {
      const actor = await actorName();
      // The description may be long: the notification says it changed; the ticket shows the new text.
      const changes = (event.changes ?? []).map((change) =>
        change.field === "description"
          ? { field: change.field }
          : {
              field: change.field,
              ...("label" in change ? { label: change.label } : {}),
              from: preview(change.from),
              to: preview(change.to),
            },
      );
      const words = (event.changes ?? []).map((change) =>
        change.field === "description"
          ? "Description edited"
          : `${ticketChangeLabel(change)}: ${preview(change.from)} → ${preview(change.to)}`,
      );
      return {
        message: `${actor ?? "Someone"} edited ticket ${name}: ${words.join("; ")}`,
        params: { kind: "edited", title, actor, changes },
      };
    }
    case "feedback": {
      const actor = await actorName();
      const rating = event.rating ?? 0;
      const feedback = await findFeedback(tx, ticket.id);
      const comment = feedback?.comment ? preview(feedback.comment) : null;
      return {
        message: `${actor ?? "Someone"} rated ticket ${name} ${stars(rating)} ${rating}/5${comment ? `: ${comment}` : ""}`,
        params: { kind: "feedback", title, actor, rating, comment },
      };
    }
    case "sla_warning":
    case "sla_breached": {
      const target = event.slaTarget ?? "resolution";
      const dueAt = event.dueAt ?? null;
      const text = slaEventText(event.type, target, { dueAt, at: event.createdAt ?? new Date() });
      return {
        message: `${text} on ticket ${name}`,
        params:
          event.type === "sla_warning"
            ? { kind: "sla_warning", title, target, dueAt: dueAt?.toISOString() ?? null }
            : { kind: "sla_breached", title, target },
      };
    }
    case "auto_closed": {
      const idleDays = event.idleDays ?? 0;
      return {
        message: `Ticket ${name} was ${autoClosedText(idleDays).toLowerCase()}`,
        params: { kind: "auto_closed", title, idleDays },
      };
    }
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
    ...(await textOf(tx, event, ticket)),
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
    // A failed broadcast is logged and never fails the creation. The savepoint undoes only the
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
      ? { type: "mentioned" as const, ...(await mentionTextOf(tx, event, ticket)) }
      : undefined;
    // The creator of a ticket that just reached Resolved also learns when it will close by itself.
    const isResolving = event.toStatus === "Resolved" && event.fromStatus !== "Resolved";
    const notice = isResolving ? await autoCloseNoticeFor(tx, createdAt) : null;
    const forCreator = notice
      ? {
          message: `${common.message}. ${notice.text}`,
          params:
            common.params.kind === "status_changed"
              ? { ...common.params, autoCloseAt: notice.closesAt.toISOString() }
              : common.params,
        }
      : {};
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
