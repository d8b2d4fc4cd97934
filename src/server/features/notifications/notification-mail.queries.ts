import { eq, inArray, sql } from "drizzle-orm";
import type { EmailableNotificationType } from "#shared/notifications/notification.schemas.ts";
import type { Db } from "../../db/client.ts";
import { mailOutbox, notificationSettings, tickets, users } from "../../db/schema/index.ts";

/** The people a set of notifications goes to, with their choices (null: no row yet, so the defaults). */
export function findMailRecipients(db: Db, userIds: string[]) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      status: users.status,
      emailTypes: notificationSettings.emailTypes,
    })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(inArray(users.id, userIds));
}

export function findTicketTitles(db: Db, ticketIds: string[]) {
  return db
    .select({ id: tickets.id, title: tickets.title })
    .from(tickets)
    .where(inArray(tickets.id, ticketIds));
}

export async function insertOutboxMails(db: Db, rows: Array<typeof mailOutbox.$inferInsert>) {
  if (rows.length > 0) await db.insert(mailOutbox).values(rows);
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
