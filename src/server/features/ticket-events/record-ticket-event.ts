import type { Db } from "#server/db/client.ts";
import { type NotificationAudience, teamAudience } from "#server/db/schema/index.ts";
import type { Announcement, MailSideEffect } from "#server/events/dispatcher.ts";
import { findFollowerIds } from "#server/features/followers/follower.queries.ts";
import {
  insertAudienceNotification,
  insertNotifications,
} from "#server/features/notifications/notification.queries.ts";
import { hasAudienceMembers } from "#server/features/notifications/notification-audience.queries.ts";
import { queueNotificationMails } from "#server/features/notifications/notification-mail.service.ts";
import {
  findTicketById,
  type TicketWithNames,
  touchTicket,
} from "#server/features/ticket-records/ticket.queries.ts";
import { insertTicketEvent } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { findPeopleByIds } from "#server/features/users/user.queries.ts";
import { queueWebhookDeliveries } from "#server/features/webhooks/webhook-queue.ts";
import type { LogError } from "#server/log-error.ts";
import { maxAnnouncedRecipients } from "#server/realtime/bus.ts";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationType,
} from "#shared/notifications/notification.schemas.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import { isSlaEventType } from "#shared/service-levels/sla-escalation.ts";
import { staffOnlyEventTypes, type TicketEventType } from "#shared/tickets/ticket-activity.schemas.ts";
import { roleOf } from "#shared/users/roles.ts";
import { autoCloseNoticeFor } from "./auto-close-notice.ts";
import { mentionTextOf, textOf } from "./notification-texts.ts";
import { notificationTypeOf } from "./notification-types.ts";
import { findEscalationRecipients } from "./recipient.queries.ts";
import type { TicketEventInput } from "./ticket-event-input.ts";

type TicketEventAnnouncement = Extract<Announcement, { kind: "ticket-event" }>;

/**
 * Who hears about an event by name, never the person who caused it: people on the ticket, and its
 * followers (decision 014), each once. A new ticket, and a move to a team, are addressed to an audience
 * instead (addressedAudience).
 * Whether each may still be told is audienceOf's to decide.
 */
export function recipientsOf(
  type: TicketEventInput["type"],
  ticket: Pick<TicketFacts, "createdBy" | "assignedTo">,
  actorId: string | null,
  followerIds: readonly string[] = [],
  holdEnd: TicketEventInput["holdEnd"] = null,
): string[] {
  // A new ticket is news to the technicians as a whole (or its team's), a move to a team to that team:
  // addressed to them, not to a list (decisions 068, 069).
  if (type === "created" || type === "team_changed") return [];
  // Tags are staff's labels (decision 071): adding or removing one tells nobody.
  if (type === "tags_changed") return [];
  // Links and what was merged in are staff's working notes (decision 074): nobody is told. The merged
  // duplicate's own "merged" entry goes to its people, as a status change does.
  if (type === "linked" || type === "unlinked" || type === "merged_in") return [];
  // A rule's notice names its own recipients; a refused rule tells nobody (decision 076).
  if (type === "rule_notified" || type === "rule_refused") return [];
  // A major incident declared or ended (decision 077) is staff's: its updates are what people hear.
  if (type === "incident_declared" || type === "incident_ended") return [];
  // On hold (decision 070): the hold's own entries tell nobody; a lifted hold (which the caller records
  // only when the requester's reply or its date lifted it, holdEnd) is for the assignee alone.
  if (type === "put_on_hold" || type === "hold_changed") return [];
  if (type === "taken_off_hold") {
    return holdEnd === "reply" || holdEnd === "date"
      ? [ticket.assignedTo].filter((id): id is string => id !== null && id !== actorId)
      : [];
  }
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

/**
 * The audience an event is addressed to as a whole, if any (decisions 068, 069): a new ticket, and an
 * unassigned ticket's escalation, go to its team's technicians, or to every technician when it has no team;
 * a move to a team goes to that team (a move out of every team, to no one).
 */
async function addressedAudience(
  tx: Db,
  type: TicketEventType,
  ticket: Pick<TicketWithNames, "teamId" | "assignedTo">,
): Promise<NotificationAudience | null> {
  if (type === "team_changed") return ticket.teamId === null ? null : teamAudience(ticket.teamId);
  if (type !== "created" && !(isSlaEventType(type) && ticket.assignedTo === null)) return null;
  if (ticket.teamId === null) return "technicians";
  // A team no active technician is in would leave the ticket unheard of: every technician hears instead.
  const team = teamAudience(ticket.teamId);
  return (await hasAudienceMembers(tx, team)) ? team : "technicians";
}

/**
 * Who hears of an event by name (before audienceOf): the escalation's people, the people a rule's notice
 * names (decision 076), or the people on the ticket, its followers and those a comment mentions.
 */
async function recipientsFor(
  tx: Db,
  event: TicketEventInput,
  ticket: TicketWithNames,
  {
    mentionedUserIds,
    noticeUserIds,
  }: { mentionedUserIds: readonly string[]; noticeUserIds: readonly string[] },
): Promise<string[]> {
  // Escalations go to the assignee (or, while unassigned, to an audience: addressedAudience) and the
  // admins: staff only.
  if (isSlaEventType(event.type)) return findEscalationRecipients(tx, ticket.assignedTo);
  if (event.type === "rule_notified") return [...new Set(noticeUserIds)];
  const followerIds = event.type === "created" ? [] : await findFollowerIds(tx, ticket.id);
  return recipientsOf(
    event.type,
    ticket,
    event.actorId ?? null,
    [...followerIds, ...mentionedUserIds],
    event.holdEnd,
  );
}

const isStaffOnlyEvent = (type: TicketEventType) =>
  (staffOnlyEventTypes as readonly TicketEventType[]).includes(type);

const isEmailableType = (type: NotificationType): type is EmailableNotificationType =>
  emailableNotificationTypes.includes(type as EmailableNotificationType);

/**
 * The one write path for a ticket change's side effects, inside the change's own transaction: the timeline
 * row, the notification rows and their e-mail copies (for those who chose them), and one webhook delivery
 * per subscribed endpoint. Returns what to announce once the transaction has committed.
 */
export async function recordTicketEvent(
  tx: Db,
  event: TicketEventInput,
  {
    logError,
    mail,
    baseURL,
  }: {
    logError: LogError;
    mail?: MailSideEffect;
    /** BASE_URL: a webhook payload names the ticket's page (decision 080). */
    baseURL?: string;
  },
): Promise<{ announcement: TicketEventAnnouncement; mailsQueued: number; webhooksQueued: number }> {
  const { mentionedUserIds = [], noticeUserIds = [], heldSince: _heldSince, ...values } = event;
  const createdAt = event.createdAt ?? new Date();
  const eventId = await insertTicketEvent(tx, { ...values, createdAt });
  // Anything the creator can see happen is activity, and moves the auto-close date (decision 021); an
  // internal note, an escalation or a team move (staff only) is not, or the date would tell a user that
  // something hidden happened.
  const isStaffOnly = isStaffOnlyEvent(event.type);
  if (!isStaffOnly) {
    await touchTicket(tx, event.ticketId, createdAt);
  }
  const ticket = await findTicketById(tx, event.ticketId);
  if (!ticket) throw new Error(`recordTicketEvent: ticket ${event.ticketId} does not exist`);
  const actorId = event.actorId ?? null;
  const recipients = await recipientsFor(tx, event, ticket, { mentionedUserIds, noticeUserIds });
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
  // Who this event notified, when it is a list (whoever is a technician, when it addresses them).
  let notified: string[] | undefined;
  // One row addressed to the audience (decision 068), and the e-mails of its members who want them.
  const toAudience = async (db: Db, audience: NotificationAudience) => {
    const { id, mailTo } = await insertAudienceNotification(db, {
      ...common,
      audience,
      exceptUserId: event.actorId ?? null,
      mailType: mail && isEmailableType(common.type) ? common.type : null,
    });
    return queueMails(
      db,
      mailTo.map((userId) => ({ id, userId })),
    );
  };
  if (event.type === "created") {
    // A failed broadcast is logged and never fails the creation: the savepoint undoes only the
    // broadcast (and its mails), so the ticket still commits.
    try {
      mailsQueued = await tx.transaction(async (savepoint) =>
        toAudience(savepoint, (await addressedAudience(savepoint, event.type, ticket)) ?? "technicians"),
      );
    } catch (error) {
      logError(error, `could not broadcast the new ticket ${ticket.id} to technicians`);
    }
  } else {
    const addressed = await addressedAudience(tx, event.type, ticket);
    if (addressed) mailsQueued += await toAudience(tx, addressed);
    const audience = await audienceOf(tx, recipients, ticket, isStaffOnly);
    if (!addressed) notified = audience;
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
            common.params.kind === "status_changed" || common.params.kind === "auto_resolved"
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
    mailsQueued += await queueMails(tx, rows);
  }
  // Not in a savepoint: a delivery is queued with its change or the change does not happen (exactly once).
  const { ticketId: _ticketId, actorId: _actorId, createdAt: _createdAt, ...facts } = values;
  const webhooksQueued = await queueWebhookDeliveries(
    tx,
    { ...facts, eventId, ticket, actorId, occurredAt: createdAt },
    { baseURL },
  );
  const announcement: TicketEventAnnouncement = {
    kind: "ticket-event",
    eventId,
    ticketId: ticket.id,
    // Read after the change: who may see the ticket now.
    ticket: { createdBy: ticket.createdBy, assignedTo: ticket.assignedTo, status: ticket.status },
  };
  if (notified && notified.length <= maxAnnouncedRecipients) announcement.recipients = notified;
  // Even a content-free "ticket changed" would tell a user that something hidden happened.
  if (isStaffOnly) announcement.staffOnly = true;
  return { announcement, mailsQueued, webhooksQueued };
}
