import {
  defaultEmailNotificationTypes,
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationType,
  notificationTypeLabels,
} from "#shared/notifications/notification.schemas.ts";
import type { Db } from "../../db/client.ts";
import type { mailOutbox } from "../../db/schema/index.ts";
import { notificationMail } from "../../mail/templates.ts";
import { replyAddress } from "../inbound-mail/reply-address.ts";
import { findMailRecipients, findTicketTitles, insertOutboxMails } from "./notification-mail.queries.ts";
import { createUnsubscribeToken } from "./unsubscribe-token.ts";

export interface NotificationToMail {
  id: string | bigint;
  userId: string;
  type: NotificationType;
  message: string;
  ticketId: string | null;
  /** About something staff-only (an internal note, a service-level alert): a reply becomes an internal note. */
  isInternal?: boolean;
}

export interface NotificationMailConfig {
  /** The public address (BASE_URL) links in the mail point to. */
  baseURL: string;
  /** The app's auth secret; unsubscribe tokens are signed with a key derived from it. */
  secret: string;
  /**
   * The inbound listener's domain (INBOUND_EMAIL_ADDRESS), when it runs: mail about a ticket then carries a
   * signed Reply-To, and a reply becomes a comment (decision 028). Without it, replies go nowhere special.
   */
  replyDomain?: string;
}

const isEmailable = (type: NotificationType): type is EmailableNotificationType =>
  emailableNotificationTypes.includes(type as EmailableNotificationType);

const subjectLead: Record<EmailableNotificationType, string> = {
  new_ticket: "New ticket",
  ticket_comment: "New comment on",
  ticket_status: "Status changed on",
  ticket_assigned: "Assigned:",
  ticket_feedback: "Feedback on",
  internal_note: "Internal note on",
  mentioned: "You were mentioned on",
  ticket_edited: "Details corrected on",
  sla_warning: "Due soon:",
  sla_breached: "Target missed:",
  ticket_auto_closed: "Closed automatically:",
};

function subjectFor(type: EmailableNotificationType, ticketId: string | null, title: string | undefined) {
  // Header folding is nodemailer's job, but a line break in a title must not start a new header line.
  const shortTitle = title?.replace(/\s+/g, " ").trim().slice(0, 80);
  const about = [ticketId, shortTitle].filter(Boolean).join(": ");
  return `[Helpdesk] ${subjectLead[type]}${about ? ` ${about}` : ""}`;
}

/**
 * Queues the e-mail copies of freshly written notifications, in the caller's transaction, for each
 * recipient who is Active and chose that type (or has it on by default). Test notifications are never
 * mailed. A fixed number of queries whatever the number of notifications: recipients, titles, one insert.
 * After the transaction commits, the caller wakes the mail dispatcher, which sends them.
 */
export async function queueNotificationMails(
  tx: Db,
  notifications: NotificationToMail[],
  { baseURL, secret, replyDomain }: NotificationMailConfig,
): Promise<number> {
  const mailable = notifications.filter((n) => isEmailable(n.type));
  if (mailable.length === 0) return 0;
  const ticketIds = [...new Set(mailable.flatMap((n) => (n.ticketId ? [n.ticketId] : [])))];
  // One after the other: a transaction is one connection, and pg refuses overlapping queries on one.
  const recipients = await findMailRecipients(tx, [...new Set(mailable.map((n) => n.userId))]);
  const titles = ticketIds.length > 0 ? await findTicketTitles(tx, ticketIds) : [];
  const recipientById = new Map(recipients.map((r) => [r.id, r]));
  const titleById = new Map(titles.map((t) => [t.id, t.title]));

  // Message ids name the ticket, so that mail programs thread every mail about one ticket together.
  const idDomain = replyDomain ?? new URL(baseURL).hostname;
  const rows: Array<typeof mailOutbox.$inferInsert> = [];
  for (const n of mailable) {
    const type = n.type as EmailableNotificationType;
    const person = recipientById.get(n.userId);
    if (person?.status !== "Active") continue;
    const chosen: readonly string[] = person.emailTypes ?? defaultEmailNotificationTypes;
    if (!chosen.includes(type)) continue;
    const token = createUnsubscribeToken(secret, person.id, type);
    const link = n.ticketId
      ? `${baseURL}/tickets/${encodeURIComponent(n.ticketId)}`
      : `${baseURL}/notifications`;
    const mail = notificationMail(person.email, {
      name: person.name,
      subject: subjectFor(type, n.ticketId, n.ticketId ? titleById.get(n.ticketId) : undefined),
      message: n.message,
      link,
      linkLabel: n.ticketId ? `Open ticket ${n.ticketId}` : "Open your notifications",
      typeLabel: notificationTypeLabels[type],
      unsubscribeUrl: `${baseURL}/unsubscribe?token=${encodeURIComponent(token)}`,
      settingsUrl: `${baseURL}/profile`,
    });
    const reply =
      replyDomain && n.ticketId
        ? replyAddress(secret, replyDomain, {
            ticketId: n.ticketId,
            userId: person.id,
            isInternal: n.isInternal ?? false,
          })
        : null;
    const thread = n.ticketId ? `<ticket.${n.ticketId}@${idDomain}>` : null;
    rows.push({
      userId: person.id,
      toAddress: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      link: mail.link,
      headers: {
        // RFC 8058 one-click: the mail provider POSTs "List-Unsubscribe=One-Click" to this address.
        "List-Unsubscribe": `<${baseURL}/api/notifications/unsubscribe?token=${encodeURIComponent(token)}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        // RFC 3834: written by a program, so out-of-office replies and other helpdesks do not answer it
        // (and Exchange is asked not to); our own listener ignores mail marked like this (no loops).
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "Message-ID": `<notification.${String(n.id)}@${idDomain}>`,
        ...(thread ? { "In-Reply-To": thread, References: thread } : {}),
        ...(reply ? { "Reply-To": reply } : {}),
      },
      kind: "notification",
      notificationId: BigInt(n.id),
    });
  }
  await insertOutboxMails(tx, rows);
  return rows.length;
}
