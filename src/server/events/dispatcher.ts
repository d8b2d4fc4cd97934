import type { NotificationMailConfig } from "#server/features/notifications/notification-mail.service.ts";
import type { LogError } from "#server/log-error.ts";
import type { Bus, BusMessage } from "#server/realtime/bus.ts";

/** What a committed transaction must tell the world about. */
export type Announcement = BusMessage;

/** E-mail copies of notifications: what the write path needs to queue them, and how to wake the sender. */
export interface MailSideEffect extends NotificationMailConfig {
  wake(): void;
}

/**
 * After commit, one place wakes every side channel of what was recorded. Push goes through the bus; the
 * e-mail queue and the webhook queue (whose rows recordTicketEvent writes in the same transaction) are
 * woken here too.
 */
export interface Dispatcher {
  /** Never throws: the change is already committed, and the notifications table stays the truth. */
  dispatch(
    announcements: readonly Announcement[],
    options?: { mailQueued?: boolean; webhookQueued?: boolean },
  ): void;
  logError: LogError;
  /** Absent in tests that do not need mail: nothing is queued then. */
  mail?: MailSideEffect;
  /** BASE_URL, for the links a webhook payload carries (decision 080). */
  baseURL?: string;
}

export function createDispatcher({
  bus,
  logError,
  mail,
  webhooks,
  beforePublish,
  baseURL,
}: {
  bus: Bus;
  baseURL?: string;
  logError: LogError;
  mail?: MailSideEffect;
  /** The webhook sender (features/webhooks/webhook-sender.ts): sends what the commit queued, off the request path. */
  webhooks?: { wake(): void };
  /**
   * Called at once with every announcement, before the bus delivers it anywhere: this instance's caches
   * (the session cache, decision 039; the ticket read cache, decision 066) apply it by the same rule as a
   * message from the bus, so they forget before the request that made the change is answered.
   */
  beforePublish?: (announcement: Announcement) => void;
}): Dispatcher {
  return {
    dispatch(announcements, { mailQueued = false, webhookQueued = false } = {}) {
      for (const announcement of announcements) {
        beforePublish?.(announcement);
        bus.publish(announcement).catch((error) => logError(error, "could not publish to the push bus"));
      }
      if (mailQueued) mail?.wake();
      if (webhookQueued) webhooks?.wake();
    },
    logError,
    mail,
    baseURL,
  };
}
