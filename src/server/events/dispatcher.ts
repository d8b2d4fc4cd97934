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
}

export function createDispatcher({
  bus,
  logError,
  mail,
  webhooks,
  onSessionEnded,
}: {
  bus: Bus;
  logError: LogError;
  mail?: MailSideEffect;
  /** The webhook sender (features/webhooks/webhook-sender.ts): sends what the commit queued, off the request path. */
  webhooks?: { wake(): void };
  /**
   * Called at once, before the bus delivers it anywhere, for every "session-ended": this instance's session
   * cache forgets the person before the request that ended their sessions is answered (decision 039).
   */
  onSessionEnded?: (userId: string) => void;
}): Dispatcher {
  return {
    dispatch(announcements, { mailQueued = false, webhookQueued = false } = {}) {
      for (const announcement of announcements) {
        if (announcement.kind === "session-ended") onSessionEnded?.(announcement.userId);
        bus.publish(announcement).catch((error) => logError(error, "could not publish to the push bus"));
      }
      if (mailQueued) mail?.wake();
      if (webhookQueued) webhooks?.wake();
    },
    logError,
    mail,
  };
}
