import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { mailOutbox, notificationSettings, tickets, users } from "#server/db/schema/index.ts";
import {
  defaultEmailNotificationTypes,
  type EmailableNotificationType,
} from "#shared/notifications/notification.schemas.ts";

/**
 * Whether the person (a row of `users` and their `notification_settings`, null when they have none) gets
 * this type of notification by e-mail: Active, and the type is among their choices, or among the defaults
 * when they never chose. The one place this is decided; PostgreSQL decides it for every recipient at once.
 */
export const wantsMail = (type: EmailableNotificationType, user: SQL, settings: SQL) => sql`(
  ${user}.status = 'Active'
  and ${type}::text = any(coalesce(${settings}.email_types, ${sql.param(defaultEmailNotificationTypes)}::text[])))`;

export function findTicketTitles(db: Db, ticketIds: string[]) {
  return db
    .select({ id: tickets.id, title: tickets.title })
    .from(tickets)
    .where(inArray(tickets.id, ticketIds));
}

/**
 * The e-mail copies of notifications with one content (type, message, ticket): the message rendered once by
 * the template with stand-ins (`slots`) where each person's name and unsubscribe token go; PostgreSQL puts in
 * each recipient's name (HTML-escaped in the HTML part) and their token, for those who want the mail.
 */
interface NotificationMailRows {
  type: EmailableNotificationType;
  subject: string;
  text: string;
  html: string;
  link: string;
  /** The headers every copy has; each also gets its List-Unsubscribe, Message-ID and (maybe) Reply-To. */
  headers: Record<string, string>;
  slots: { name: string; token: string };
  /** List-Unsubscribe is `<${unsubscribeUrl}${token}>`. */
  unsubscribeUrl: string;
  /** Message-ID is `<notification.${id}@${idDomain}>` (with the person's hash after the id when copies share it). */
  idDomain: string;
  /** The ticket the mail is about, if any, and whether it is about something staff-only (decision 083). */
  ticketId: string | null;
  isInternal: boolean;
  /** One entry per notification, in the order the mails are queued. */
  recipients: {
    notificationIds: string[];
    userIds: string[];
    /** Each person's unsubscribe token, as it stands in a URL. */
    tokens: string[];
    replyTo: Array<string | null>;
  };
}

/** Queues the copies for the recipients who want them (wantsMail); returns how many. One statement. */
export async function insertNotificationMails(db: Db, mail: NotificationMailRows): Promise<number> {
  const { recipients: r, slots } = mail;
  if (r.notificationIds.length === 0) return 0;
  // Names go in last, so that nothing in a name is ever taken for a stand-in. The HTML escaping is the
  // template's (templates.ts): & first, then < > " '.
  const htmlName = sql`replace(replace(replace(replace(replace(p.name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;
  const result = await db.execute<{ queued: number | string }>(sql`
    with picked as (
      select u.id as user_id, u.email, u.name, m.id, m.token, m.reply_to, m.n,
             -- One notification to an audience is many mails (decision 068): each its own id.
             '<notification.' || m.id
               || case when count(*) over (partition by m.id) > 1 then '.' || substr(md5(u.id), 1, 16) else '' end
               || '@' || ${mail.idDomain}::text || '>' as message_id
      from unnest(${sql.param(r.notificationIds)}::bigint[], ${sql.param(r.userIds)}::text[],
                  ${sql.param(r.tokens)}::text[], ${sql.param(r.replyTo)}::text[])
             with ordinality as m(id, user_id, token, reply_to, n)
      join ${users} u on u.id = m.user_id
      left join ${notificationSettings} s on s.user_id = u.id
      where ${wantsMail(mail.type, sql`u`, sql`s`)}),
    queued as (
      insert into ${mailOutbox} (user_id, to_address, subject, text, html, link, headers, kind, notification_id,
                                 message_id, ticket_id, is_internal)
      select p.user_id, p.email, ${mail.subject},
             replace(replace(${mail.text}::text, ${slots.token}::text, p.token), ${slots.name}::text, p.name),
             replace(replace(${mail.html}::text, ${slots.token}::text, p.token), ${slots.name}::text, ${htmlName}),
             ${mail.link},
             ${JSON.stringify(mail.headers)}::jsonb || jsonb_strip_nulls(jsonb_build_object(
               'List-Unsubscribe', '<' || ${mail.unsubscribeUrl}::text || p.token || '>',
               'Message-ID', p.message_id,
               'Reply-To', p.reply_to)),
             'notification', p.id,
             -- Kept for mail about a ticket: a reply that names it in In-Reply-To finds the ticket (decision 083).
             case when ${mail.ticketId}::text is not null then p.message_id end, ${mail.ticketId}::text,
             ${mail.isInternal}
      from picked p
      order by p.n
      returning 1)
    select count(*)::int as queued from queued`);
  const rows = (result as unknown as { rows: Array<{ queued: number | string }> }).rows;
  return Number(rows[0]?.queued ?? 0);
}

export async function findSettingsOwner(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      emailTypes: notificationSettings.emailTypes,
      soundsMuted: notificationSettings.soundsMuted,
    })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function upsertNotificationSettings(
  db: Db,
  values: { userId: string; emailTypes: string[]; soundsMuted: boolean },
) {
  await db
    .insert(notificationSettings)
    .values({ ...values, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: { emailTypes: values.emailTypes, soundsMuted: values.soundsMuted, updatedAt: new Date() },
    });
}

/**
 * Turns one type off in one statement: from the stored choices, or from the defaults when the person
 * has no row yet, so that two clicks at once cannot resurrect a type the other removed.
 */
export async function removeEmailType(
  db: Db,
  userId: string,
  type: EmailableNotificationType,
  defaults: readonly string[],
) {
  await db
    .insert(notificationSettings)
    .values({ userId, emailTypes: defaults.filter((t) => t !== type), updatedAt: new Date() })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        emailTypes: sql`array_remove(${notificationSettings.emailTypes}, ${type})`,
        updatedAt: new Date(),
      },
    });
}
