import { randomBytes } from "node:crypto";
import type { Db } from "#server/db/client.ts";
import { replyAddress } from "#server/features/inbound-mail/reply-address.ts";
import { notificationMail } from "#server/mail/templates.ts";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationType,
  notificationTypeLabels,
} from "#shared/notifications/notification.schemas.ts";
import { findTicketTitles, insertNotificationMails } from "./notification-mail.queries.ts";
import { createUnsubscribeToken } from "./unsubscribe-token.ts";

interface NotificationToMail {
  id: string | bigint;
  userId: string;
  type: NotificationType;
  message: string;
  ticketId: string | null;
  /** About something staff-only (an internal note, a service-level alert): a reply becomes an internal note. */
  isInternal?: boolean;
  /** The ticket's title when the caller has it (the subject names it); otherwise it is read. */
  ticketTitle?: string;
  /** What the subject names when the mail is about no ticket (a webhook's URL, decision 080). */
  about?: string;
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
  ticket_hold_lifted: "No longer on hold:",
  ticket_auto_resolved: "Resolved automatically:",
  ticket_team: "Moved to your team:",
  rule_notice: "Please look at",
  webhook_disabled: "Webhook switched off:",
};

function subjectFor(type: EmailableNotificationType, ticketId: string | null, title: string | undefined) {
  // Header folding is nodemailer's job, but a line break in a title must not start a new header line.
  const shortTitle = title?.replace(/\s+/g, " ").trim().slice(0, 80);
  // The ticket's id in brackets is its tag: a reply that lost its other marks is still placed (decision 083).
  const about = [ticketId ? `[${ticketId}]` : null, shortTitle].filter(Boolean).join(": ");
  return `[Helpdesk] ${subjectLead[type]}${about ? ` ${about}` : ""}`;
}

/**
 * Queues the e-mail copies of freshly written notifications, in the caller's transaction, for each
 * recipient who is Active and chose that type (or has it on by default; wantsMail decides, in SQL). Test
 * notifications are never mailed. One statement per distinct content (a comment's notifications share one;
 * the creator's copy of a resolution, with its auto-close notice, is another), plus one to read ticket
 * titles the caller did not give. After the transaction commits, the caller wakes the mail dispatcher.
 */
export async function queueNotificationMails(
  tx: Db,
  notifications: NotificationToMail[],
  config: NotificationMailConfig,
): Promise<number> {
  const mailable = notifications.filter((n) => isEmailable(n.type));
  if (mailable.length === 0) return 0;
  const unknownTitles = [
    ...new Set(mailable.flatMap((n) => (n.ticketId && n.ticketTitle === undefined ? [n.ticketId] : []))),
  ];
  const titleById = new Map(
    unknownTitles.length > 0 ? (await findTicketTitles(tx, unknownTitles)).map((t) => [t.id, t.title]) : [],
  );
  const groups = new Map<string, NotificationToMail[]>();
  for (const n of mailable) {
    const key = JSON.stringify([n.type, n.message, n.ticketId, n.isInternal ?? false]);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  let queued = 0;
  // One after the other: a transaction is one connection, and pg refuses overlapping queries on one.
  for (const group of groups.values()) {
    const first = group[0]!;
    const title = first.ticketId ? (first.ticketTitle ?? titleById.get(first.ticketId)) : first.about;
    queued += await insertNotificationMails(tx, mailRows(first, title, group, config));
  }
  return queued;
}

/**
 * The template rendered once for a content, with stand-ins for the person's name and unsubscribe token
 * (random, so that no message or name can contain one), and what PostgreSQL needs to fill them in for each
 * recipient. The tokens and reply addresses are signed here: the signing keys never leave the process (a
 * statement's parameters can reach PostgreSQL's and the app's logs).
 */
function mailRows(
  content: NotificationToMail,
  title: string | undefined,
  recipients: NotificationToMail[],
  { baseURL, secret, replyDomain }: NotificationMailConfig,
) {
  const type = content.type as EmailableNotificationType;
  const { ticketId } = content;
  const stand = randomBytes(12).toString("hex");
  const slots = { name: `{{name:${stand}}}`, token: `{{token:${stand}}}` };
  // A webhook switched off (decision 080) is mended on the admin's webhook page.
  const link = ticketId
    ? `${baseURL}/tickets/${encodeURIComponent(ticketId)}`
    : type === "webhook_disabled"
      ? `${baseURL}/admin/settings?tab=webhooks`
      : `${baseURL}/notifications`;
  const mail = notificationMail("", {
    name: slots.name,
    subject: subjectFor(type, ticketId, title),
    message: content.message,
    link,
    linkLabel: ticketId
      ? `Open ticket ${ticketId}`
      : type === "webhook_disabled"
        ? "Open the webhooks"
        : "Open your notifications",
    typeLabel: notificationTypeLabels[type],
    unsubscribeUrl: `${baseURL}/unsubscribe?token=${slots.token}`,
    settingsUrl: `${baseURL}/profile`,
  });
  // Message ids name the ticket, so that mail programs thread every mail about one ticket together.
  const idDomain = replyDomain ?? new URL(baseURL).hostname;
  const thread = ticketId ? `<ticket.${ticketId}@${idDomain}>` : null;
  return {
    type,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? "",
    link: mail.link ?? link,
    headers: {
      // RFC 8058 one-click: the mail provider POSTs "List-Unsubscribe=One-Click" to List-Unsubscribe.
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      // RFC 3834: written by a program, so out-of-office replies and other helpdesks do not answer it
      // (and Exchange is asked not to); our own listener ignores mail marked like this (no loops).
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
      ...(thread ? { "In-Reply-To": thread, References: thread } : {}),
    },
    slots,
    unsubscribeUrl: `${baseURL}/api/notifications/unsubscribe?token=`,
    idDomain,
    ticketId,
    isInternal: content.isInternal ?? false,
    recipients: {
      notificationIds: recipients.map((n) => String(n.id)),
      userIds: recipients.map((n) => n.userId),
      // A token is base64url and dots: the same in a URL and in HTML as it is.
      tokens: recipients.map((n) => encodeURIComponent(createUnsubscribeToken(secret, n.userId, type))),
      replyTo: recipients.map((n) =>
        replyDomain && ticketId
          ? replyAddress(secret, replyDomain, {
              ticketId,
              userId: n.userId,
              isInternal: content.isInternal ?? false,
            })
          : null,
      ),
    },
  };
}
