import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { webhookEndpoints } from "#server/db/schema/index.ts";
import type { MailSideEffect } from "#server/events/dispatcher.ts";
import { insertNotifications } from "#server/features/notifications/notification.queries.ts";
import { queueNotificationMails } from "#server/features/notifications/notification-mail.service.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { findActiveAdminIds } from "#server/features/users/user.queries.ts";
import { toWebhookSnapshot } from "./webhook.presenter.ts";

/** What switching an endpoint off wrote, for the caller to announce after commit. */
export interface WebhookDisabled {
  notificationIds: number[];
  mailsQueued: number;
}

/** A delivery made: the endpoint's run of failures is over (decision 080). */
export async function resetFailures(db: Db, endpointId: string) {
  await db
    .update(webhookEndpoints)
    .set({ consecutiveFailures: 0 })
    .where(and(eq(webhookEndpoints.id, endpointId), ne(webhookEndpoints.consecutiveFailures, 0)));
}

/**
 * A delivery failed for good (its retries spent, or refused at once), in the transaction that records it:
 * counts one more failure in a row for its endpoint, and when that reaches the endpoint's limit (0: never),
 * switches the endpoint off, says why on it and in the admin change history (no actor: the app did it), and
 * tells every active administrator, in the app and, for those who chose it, by e-mail (decision 080). The
 * counting update locks the endpoint's row, so two instances recording failures at once switch it off once.
 * Returns what to announce after commit, or null when the endpoint stays on.
 */
export async function countFailure(
  tx: Db,
  endpointId: string,
  { error, at, mail }: { error: string; at: Date; mail?: MailSideEffect },
): Promise<WebhookDisabled | null> {
  const [counted] = await tx
    .update(webhookEndpoints)
    .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  if (!counted?.active || counted.failureLimit === 0 || counted.consecutiveFailures < counted.failureLimit) {
    return null;
  }
  const failures = counted.consecutiveFailures;
  const inARow = failures === 1 ? "1 delivery failed" : `${failures} deliveries failed in a row`;
  const reason = `Switched off after ${inARow}. The last: ${error}`;
  const [after] = await tx
    .update(webhookEndpoints)
    .set({ active: false, disabledAt: at, disabledReason: reason, updatedAt: at })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  await insertAdminChange(tx, {
    actorId: null,
    area: "webhooks",
    summary: `Switched off the webhook ${counted.url} after ${failures} failed deliveries`,
    before: toWebhookSnapshot(counted),
    after: toWebhookSnapshot(after!),
    at,
  });
  const message = `The webhook ${counted.url} was switched off after ${inARow}. Last error: ${error}`;
  const rows = await insertNotifications(
    tx,
    (await findActiveAdminIds(tx)).map((userId) => ({
      userId,
      type: "webhook_disabled" as const,
      message,
      params: {
        kind: "webhook_disabled" as const,
        webhookId: counted.id,
        url: counted.url,
        failures,
        error,
      },
      ticketId: null,
      eventId: null,
      broadcast: false,
      createdAt: at,
    })),
  );
  const mailsQueued = mail
    ? await queueNotificationMails(
        tx,
        rows.map((row) => ({
          ...row,
          id: String(row.id),
          type: "webhook_disabled" as const,
          message,
          about: counted.url,
        })),
        mail,
      )
    : 0;
  return { notificationIds: rows.map((row) => Number(row.id)), mailsQueued };
}
