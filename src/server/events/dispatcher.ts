import type { Bus, BusMessage } from "../realtime/bus.ts";

/** What a committed transaction must tell the world about. */
export type Announcement = BusMessage;

export type LogError = (error: unknown, message: string) => void;

/**
 * After commit, one place wakes every side channel of what was recorded. Push goes through the bus; the
 * e-mail queue and webhooks (whose rows recordTicketEvent writes in the same transaction) are woken here too.
 */
export interface Dispatcher {
  /** Never throws: the change is already committed, and the notifications table stays the truth. */
  dispatch(announcements: readonly Announcement[]): void;
  logError: LogError;
}

export function createDispatcher({ bus, logError }: { bus: Bus; logError: LogError }): Dispatcher {
  return {
    dispatch(announcements) {
      for (const announcement of announcements) {
        bus.publish(announcement).catch((error) => logError(error, "could not publish to the push bus"));
      }
    },
    logError,
  };
}

/** Services run without a dispatcher in some tests: failures are still reported, nothing is pushed. */
export const consoleLogError: LogError = (error, message) => console.error(message, error);
