import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema/index.ts";
import type { MailMessage } from "./mailer.ts";

/**
 * Queues a mail to an address in the outbox, in the caller's transaction: the mail dispatcher sends it
 * after the commit, with retries. `userId` is the person it is for, when it is someone's.
 */
export async function queueMail(db: Db, userId: string | null, kind: string, mail: MailMessage) {
  await db.insert(mailOutbox).values({
    userId,
    toAddress: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    link: mail.link,
    headers: mail.headers ?? {},
    kind,
  });
}

/**
 * Claims up to `limit` due mails for this instance: a short lease (next_attempt_at moves to leaseUntil)
 * taken with FOR UPDATE SKIP LOCKED, so that concurrent instances claim disjoint rows and nobody holds a
 * transaction open while talking to the mail server. A sender that dies mid-lease leaves the row to be
 * claimed again once the lease has passed, or as soon as the other instances find it dead (claimedBy,
 * decision 041). The attempt is counted when claimed.
 */
export function claimDueMails(
  db: Db,
  {
    now,
    leaseUntil,
    limit,
    claimedBy,
  }: { now: Date; leaseUntil: Date; limit: number; claimedBy: string | null },
) {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: leaseUntil, claimedBy })
    .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, "pending")))
    .returning();
}

export async function markMailSent(db: Db, id: bigint, sentAt: Date) {
  await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt, lastError: null, claimedBy: null })
    .where(eq(mailOutbox.id, id));
}

export async function markMailForRetry(
  db: Db,
  id: bigint,
  { error, retryAt }: { error: string; retryAt: Date },
) {
  await db
    .update(mailOutbox)
    .set({ lastError: error, nextAttemptAt: retryAt, claimedBy: null })
    .where(eq(mailOutbox.id, id));
}

export async function markMailFailed(db: Db, id: bigint, error: string) {
  await db
    .update(mailOutbox)
    .set({ status: "failed", lastError: error, claimedBy: null })
    .where(eq(mailOutbox.id, id));
}

/** Gives a claimed mail back unsent (due at `now`), if this instance still holds the claim. */
export async function releaseMailClaim(
  db: Db,
  id: bigint,
  { instanceId, now }: { instanceId: string; now: Date },
) {
  await db
    .update(mailOutbox)
    .set({ claimedBy: null, nextAttemptAt: now, attempts: sql`greatest(${mailOutbox.attempts} - 1, 0)` })
    .where(
      and(eq(mailOutbox.id, id), eq(mailOutbox.status, "pending"), eq(mailOutbox.claimedBy, instanceId)),
    );
}
